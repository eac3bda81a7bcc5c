// Story: the page's form answers through the judge, as a tap does. A page opened before the
// card was edited (its `shown` fingerprint stale, or emptied) is refused by the judge before
// any transition, with the same page as ever, and the audit names the judge's refusal.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, gitLog, selectCard } from "../support/box.ts";
import { formTokenIn, postForm, webFixture } from "./web-support.ts";

afterEach(cleanupBoxes);

async function pageThenEdit() {
  const web = await webFixture();
  const id = await web.ask(selectCard());
  const link = web.link(id);
  const page = await (await web.app.request(link)).text();
  const shown = /name="shown" value="([^"]+)"/.exec(page)?.[1] as string;
  const path = join(web.box.dir, loadQuestion(web.box, id).rel);
  writeFileSync(path, readFileSync(path, "utf8").replace("label: Taxes", "label: Tax office"));
  const commits = (await gitLog(web.box.dir)).length;
  return { web, id, link, form: formTokenIn(page), shown, commits };
}

describe("the web form goes through the judge", () => {
  it("a post with a stale shown fingerprint is refused by the judge and audited", async () => {
    const p = await pageThenEdit();
    const res = await postForm(p.web.app, p.link, {
      form: p.form,
      action: "answer",
      shown: p.shown,
      choice: "taxes",
    });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("edited after you opened it");
    expect(loadQuestion(p.web.box, p.id).card.status).toBe("pending");
    expect(p.web.jobs()).toEqual([]);
    expect(await gitLog(p.web.box.dir)).toHaveLength(p.commits);
    const rows = p.web.box.ledger.auditFor(p.id).filter((row) => row.action === "answer");
    expect(rows).toMatchObject([{ surface: "web", verbatim: "taxes", outcome: "refused:changed" }]);
    expect(p.web.transitions).toEqual([]);
  });

  it("a post whose shown fingerprint is empty is refused, never let through unchecked", async () => {
    const p = await pageThenEdit();
    const res = await postForm(p.web.app, p.link, {
      form: p.form,
      action: "answer",
      shown: "",
      choice: "taxes",
    });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("edited after you opened it");
    expect(loadQuestion(p.web.box, p.id).card.status).toBe("pending");
    expect(p.web.jobs()).toEqual([]);
  });

  it("a stale page on a question answered meanwhile says what is recorded, as before", async () => {
    const p = await pageThenEdit();
    const first = await postForm(p.web.app, p.link, { form: p.form, choice: "finance" });
    expect(first.status).toBe(303);
    const res = await postForm(p.web.app, p.link, {
      form: p.form,
      action: "answer",
      shown: p.shown,
      choice: "taxes",
    });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("Nothing changed: this question is already answered");
    expect(loadQuestion(p.web.box, p.id).card.answer).toMatchObject({ selected: "finance" });
  });
});

describe("the page's other acts go through the judge", () => {
  it("later, extend and dismiss are each the judge's attempt, audited as a command on the web", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const link = web.link(id);
    const acts: Record<string, string>[] = [
      { action: "later", later: "morning" },
      { action: "extend" },
    ];
    for (const fields of acts) {
      const page = await (await web.app.request(link)).text();
      await postForm(web.app, link, { form: formTokenIn(page), ...fields });
    }
    const page = await (await web.app.request(link)).text();
    const res = await postForm(web.app, link, { form: formTokenIn(page), action: "dismiss" });
    expect(res.status).toBe(303);
    expect(loadQuestion(web.box, id).card.status).toBe("dismissed");
    const rows = web.box.ledger
      .auditFor(id)
      .filter((row) => row.action.startsWith("command:"))
      .map((row) => [row.surface, row.action]);
    expect(rows).toEqual([
      ["web", "command:later"],
      ["web", "command:extend"],
      ["web", "command:dismiss"],
    ]);
  });
});
