// The boxholder answers on the page: each form posts back to its signed link with the page's
// form token, goes through the same core as every surface, and a second post changes nothing.

import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadQuestion } from "../../src/questions/store.ts";
import {
  cleanupBoxes,
  confirmCard,
  gitLog,
  pendingCardText,
  selectCard,
  textCard,
  writeCardFile,
} from "../support/box.ts";
import { formTokenIn, postForm, resolvedIn, webFixture } from "./web-support.ts";

afterEach(cleanupBoxes);

async function openPage(web: Awaited<ReturnType<typeof webFixture>>, id: string) {
  const link = web.link(id);
  const page = await (await web.app.request(link)).text();
  return { link, form: formTokenIn(page) };
}

describe("answering through the page", () => {
  it("records the picked option via web, writes one job, and shows the recorded answer", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const { link, form } = await openPage(web, id);

    const res = await postForm(web.app, link, { form, action: "answer", choice: "finance" });
    expect(res.status).toBe(303);
    expect(resolvedIn(link, res.headers.get("location") as string)).toBe(link);

    const card = loadQuestion(web.box, id).card;
    expect(card.status).toBe("answered");
    expect(card.answer).toEqual({ text: "Finance", selected: "finance" });
    expect(card["answered-via"]).toBe("web");
    expect(web.jobs()).toEqual([`${id}.question-followup.job.card`]);
    expect(web.transitions).toEqual([{ id, action: "answered", via: "web" }]);

    const after = await (await web.app.request(link)).text();
    expect(after).toContain("Recorded answer");
    expect(after).toContain("Answered via web");
  });

  it("records the picked radio's option even when another option is labelled with its id", async () => {
    const web = await webFixture();
    // Written by hand: ask refuses such labels now, but a card filed before stays answerable.
    const card = selectCard({
      input: {
        type: "select",
        options: [
          { id: "finance", label: "Taxes" },
          { id: "taxes", label: "Finance" },
        ],
      },
    });
    const id = "by-hand";
    writeCardFile(web.box.dir, id, pendingCardText(card));
    const { link, form } = await openPage(web, id);
    await postForm(web.app, link, { form, action: "answer", choice: "finance" });
    expect(loadQuestion(web.box, id).card.answer).toEqual({ text: "Taxes", selected: "finance" });
  });

  it("refuses an answer from a page opened before the options were edited, and records nothing", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const link = web.link(id);
    const page = await (await web.app.request(link)).text();
    const shown = /name="shown" value="([^"]+)"/.exec(page)?.[1] as string;
    expect(shown).toBeTruthy();
    const path = join(web.box.dir, loadQuestion(web.box, id).rel);
    writeFileSync(path, readFileSync(path, "utf8").replace("label: Taxes", "label: Tax office"));

    const res = await postForm(web.app, link, {
      form: formTokenIn(page),
      action: "answer",
      shown,
      choice: "taxes",
    });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("edited after you opened it");
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
    expect(web.jobs()).toEqual([]);
  });

  it("a second post after the answer shows the recorded answer and creates no second job", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const { link, form } = await openPage(web, id);
    await postForm(web.app, link, { form, action: "answer", choice: "finance" });
    const commits = (await gitLog(web.box.dir)).length;

    const again = await postForm(web.app, link, { form, action: "answer", choice: "taxes" });
    expect(again.status).toBe(409);
    const page = await again.text();
    expect(page).toContain("Nothing changed: this question is already answered");
    expect(page).toContain("<strong>Finance</strong>");
    expect(web.jobs()).toHaveLength(1);
    expect(await gitLog(web.box.dir)).toHaveLength(commits);
    expect(loadQuestion(web.box, id).card.answer?.text).toBe("Finance");
  });

  it("takes the boxholder's own words with the other option", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const { link, form } = await openPage(web, id);
    await postForm(web.app, link, {
      form,
      action: "answer",
      choice: "_other",
      other: "The shoebox",
    });
    expect(loadQuestion(web.box, id).card.answer).toEqual({
      text: "The shoebox",
      selected: "_other",
    });
  });

  it("keeps both the own words and the note when the other option has both", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const { link, form } = await openPage(web, id);
    const res = await postForm(web.app, link, {
      form,
      action: "answer",
      choice: "_other",
      other: "The shoebox",
      note: "until the tax return is done",
    });
    expect(res.status).toBe(303);
    expect(loadQuestion(web.box, id).card.answer).toEqual({
      text: "The shoebox",
      selected: "_other",
      note: "until the tax return is done",
    });
  });

  it("takes the note as the own words when the other option's field was left empty", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const { link, form } = await openPage(web, id);
    const res = await postForm(web.app, link, {
      form,
      action: "answer",
      choice: "_other",
      note: "The shoebox",
    });
    expect(res.status).toBe(303);
    expect(loadQuestion(web.box, id).card.answer).toEqual({
      text: "The shoebox",
      selected: "_other",
    });
  });

  it("refuses the other option without any words, keeps the choice, and records nothing", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const { link, form } = await openPage(web, id);
    const res = await postForm(web.app, link, { form, action: "answer", choice: "_other" });
    expect(res.status).toBe(422);
    const page = await res.text();
    expect(page).toContain("Type your own words next to “Somewhere else”; nothing was recorded.");
    expect(page).not.toContain("_other;");
    expect(page).toContain('value="_other" required checked');
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
    expect(web.jobs()).toEqual([]);
  });

  it("asks which was meant when own words were typed but another choice is picked, keeping both", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const { link, form } = await openPage(web, id);
    const res = await postForm(web.app, link, {
      form,
      action: "answer",
      choice: "finance",
      other: "the shoebox",
    });
    expect(res.status).toBe(422);
    const page = await res.text();
    expect(page).toContain(
      "You typed your own words for “Somewhere else” but picked “Finance”: pick “Somewhere else” to send your words, or clear them to send “Finance”; nothing was recorded.",
    );
    expect(page).toContain('value="finance" required checked');
    expect(page).toContain('value="the shoebox"');
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
  });

  it("asks to pick a choice when none was sent, and records nothing", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const { link, form } = await openPage(web, id);
    const res = await postForm(web.app, link, { form, action: "answer", note: "typed note" });
    expect(res.status).toBe(422);
    const page = await res.text();
    expect(page).toContain("Pick one of the choices first; nothing was recorded.");
    expect(page).toContain(">typed note</textarea>");
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
    expect(web.jobs()).toEqual([]);
  });

  it("refuses a choice the question does not offer with a 422 naming the choices", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const { link, form } = await openPage(web, id);
    const res = await postForm(web.app, link, { form, action: "answer", choice: "shoebox" });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("a) Finance, b) Taxes, c) Somewhere else");
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
  });

  it("records a confirm with its note", async () => {
    const web = await webFixture();
    const id = await web.ask(confirmCard());
    const { link, form } = await openPage(web, id);
    await postForm(web.app, link, {
      form,
      action: "answer",
      choice: "no",
      note: "keep the 2024 ones",
    });
    const card = loadQuestion(web.box, id).card;
    expect(card.answer).toEqual({ text: "No", selected: "no", note: "keep the 2024 ones" });
    expect(card["answered-via"]).toBe("web");
  });

  it("records a text answer", async () => {
    const web = await webFixture();
    const id = await web.ask(textCard());
    const { link, form } = await openPage(web, id);
    await postForm(web.app, link, { form, action: "answer", text: "Anna Muster" });
    expect(loadQuestion(web.box, id).card.answer).toEqual({ text: "Anna Muster" });
  });

  it("keeps the typed answer on the page when the box cannot commit it, and takes it once fixed", async () => {
    const web = await webFixture();
    const id = await web.ask(textCard());
    const { link, form } = await openPage(web, id);
    const lock = join(web.box.dir, ".git", "index.lock");
    writeFileSync(lock, "");
    const res = await postForm(web.app, link, { form, action: "answer", text: "Anna Muster" });
    expect(res.status).toBe(503);
    const page = await res.text();
    expect(page).toContain("Nothing was recorded");
    expect(page).toContain("index.lock");
    expect(page).toContain(">Anna Muster</textarea>");
    expect(loadQuestion(web.box, id).card.status).toBe("pending");

    rmSync(lock);
    const again = await postForm(web.app, link, { form, action: "answer", text: "Anna Muster" });
    expect(again.status).toBe(303);
    expect(loadQuestion(web.box, id).card.answer).toEqual({ text: "Anna Muster" });
  });

  it("asks for text when a text answer is empty", async () => {
    const web = await webFixture();
    const id = await web.ask(textCard());
    const { link, form } = await openPage(web, id);
    const res = await postForm(web.app, link, { form, action: "answer", text: "   " });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("Write an answer first");
  });

  it("refuses pasted text with a control character with a 422 naming it, keeping the text", async () => {
    const web = await webFixture();
    const id = await web.ask(textCard());
    const { link, form } = await openPage(web, id);
    const res = await postForm(web.app, link, { form, action: "answer", text: "Anna\u001b[0m" });
    expect(res.status).toBe(422);
    const page = await res.text();
    expect(page).toContain("control character (U+001B)");
    expect(page).toContain("Nothing was recorded.");
    expect(page).toContain("Anna\u001b[0m</textarea>");
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
  });

  it("dismisses a pending question, which then shows its form again without Dismiss", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const { link, form } = await openPage(web, id);
    const res = await postForm(web.app, link, { form, action: "dismiss" });
    expect(res.status).toBe(303);
    const card = loadQuestion(web.box, id).card;
    expect(card.status).toBe("dismissed");
    expect(web.jobs()).toEqual([]);
    expect(web.transitions).toEqual([{ id, action: "dismissed", via: "web" }]);
    const page = await (await web.app.request(link)).text();
    expect(page).toContain("You can still answer it");
    expect(page).not.toContain('value="dismiss"');
  });

  it("a second Dismiss is told the question is already dismissed and commits nothing", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const { link, form } = await openPage(web, id);
    await postForm(web.app, link, { form, action: "dismiss" });
    const commits = (await gitLog(web.box.dir)).length;
    const res = await postForm(web.app, link, { form, action: "dismiss" });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("already dismissed");
    expect(await gitLog(web.box.dir)).toHaveLength(commits);
  });
});

describe("forms that did not come from the page", () => {
  it("are refused without a form token", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const res = await postForm(web.app, web.link(id), { action: "answer", choice: "finance" });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("form token is missing or wrong");
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
  });

  it("are refused with a wrong form token", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const { link, form } = await openPage(web, id);
    const wrong = `${form.slice(0, -2)}${form.endsWith("xx") ? "yy" : "xx"}`;
    const res = await postForm(web.app, link, { form: wrong, action: "answer", choice: "finance" });
    expect(res.status).toBe(403);
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
  });

  it("are refused with another question's form token", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const other = await web.ask(confirmCard());
    const { form } = await openPage(web, other);
    const res = await postForm(web.app, web.link(id), { form, action: "answer", choice: "a" });
    expect(res.status).toBe(403);
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
  });

  it("are refused when the link has expired since the page was opened", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const old = web.link(id, new Date(web.box.box.clock.now().getTime() - 8 * 24 * 3_600_000));
    const res = await postForm(web.app, old, { form: "x", action: "answer", choice: "finance" });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("This link has expired");
  });

  it("when the link expired while typing, the refusal shows what was typed so it is not lost", async () => {
    const web = await webFixture();
    const id = await web.ask(textCard());
    const old = web.link(id, new Date(web.box.box.clock.now().getTime() - 8 * 24 * 3_600_000));
    const res = await postForm(web.app, old, {
      form: "x",
      action: "answer",
      text: "Anna <Muster>, met at the fair",
    });
    expect(res.status).toBe(403);
    const page = await res.text();
    expect(page).toContain("This link has expired");
    expect(page).toContain("Anna &lt;Muster&gt;, met at the fair");
    expect(page).toContain("was not recorded");
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
  });

  it("are refused with a 413 when the body is 1 MiB, recording nothing", async () => {
    const web = await webFixture();
    const id = await web.ask(textCard());
    const { link, form } = await openPage(web, id);
    const res = await postForm(web.app, link, {
      form,
      action: "answer",
      text: "x".repeat(1024 * 1024),
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("too long");
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
  });
});
