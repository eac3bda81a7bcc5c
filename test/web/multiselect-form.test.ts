// The boxholder answers a multi-select on its page: one checkbox per option (no script), the
// boxes ticked posted as one answer through the same judge as every surface, judged by the
// page's `shown` like any form; nothing ticked, or a page older than the card, records nothing.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, gitLog, multiselectCard } from "../support/box.ts";
import { formTokenIn, type WebFixture, webFixture } from "./web-support.ts";

afterEach(cleanupBoxes);

/** Posts the page's answer form with these boxes ticked (one `choice` field each). */
async function send(
  web: WebFixture,
  link: string,
  page: string,
  ticked: string[],
  more: Record<string, string> = {},
): Promise<Response> {
  const body = new URLSearchParams({ form: formTokenIn(page), action: "answer" });
  const shown = /name="shown" value="([^"]+)"/.exec(page)?.[1];
  if (shown) body.set("shown", shown);
  for (const id of ticked) body.append("choice", id);
  for (const [name, value] of Object.entries(more)) body.set(name, value);
  return web.app.request(link, { method: "POST", body });
}

async function opened(card: Record<string, unknown> = multiselectCard()) {
  const web = await webFixture();
  const id = await web.ask(card);
  const link = web.link(id);
  const page = await (await web.app.request(link)).text();
  return { web, id, link, page };
}

describe("a multi-select on its page", () => {
  it("offers one checkbox per option, all named choice, lettered, and no radio", async () => {
    const { page } = await opened(multiselectCard({ recommended: "lint" }));
    expect(page).toContain('type="checkbox" name="choice" value="unit"');
    expect(page).toContain('type="checkbox" name="choice" value="lint"');
    expect(page).toContain('type="checkbox" name="choice" value="types"');
    expect(page).toContain('<span class="letter">c)</span> Type check');
    expect(page).toContain('aria-label="Pick one or more"');
    expect(page).toContain('<span class="rec">recommended</span>');
    expect(page).not.toContain('type="radio"');
    expect(page).not.toContain("<script");
  });

  it("records the ticked boxes as one answer via web, with one job and one commit", async () => {
    const { web, id, link, page } = await opened();
    const res = await send(web, link, page, ["types", "unit"], { note: "only on main" });
    expect(res.status).toBe(303);
    const { card } = loadQuestion(web.box, id);
    expect(card.answer).toEqual({
      text: "Unit tests, Type check",
      selected: "unit,types",
      note: "only on main",
    });
    expect(card["answered-via"]).toBe("web");
    expect(web.jobs()).toEqual([`${id}.question-followup.job.card`]);
    expect((await gitLog(web.box.dir)).filter((s) => s.startsWith("answer:"))).toHaveLength(1);
    const after = await (await web.app.request(link)).text();
    expect(after).toContain("<strong>Unit tests, Type check</strong>");
  });

  it("with no box ticked, asks for one, keeps the note, and records nothing", async () => {
    const { web, id, link, page } = await opened();
    const res = await send(web, link, page, [], { note: "typed note" });
    expect(res.status).toBe(422);
    const again = await res.text();
    expect(again).toContain("Pick at least one of the choices first; nothing was recorded.");
    expect(again).toContain(">typed note</textarea>");
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
    expect(web.jobs()).toEqual([]);
  });

  it("shows the boxes ticked again when a post is refused", async () => {
    const card = multiselectCard({
      input: {
        type: "multiselect",
        options: [
          { id: "unit", label: "Unit tests" },
          { id: "_other", label: "Something else" },
        ],
      },
    });
    const { web, id, link, page } = await opened(card);
    const res = await send(web, link, page, ["unit", "_other"]);
    expect(res.status).toBe(422);
    const again = await res.text();
    expect(again).toContain("Type your own words next to “Something else”; nothing was recorded.");
    expect(again).toContain('value="unit" checked');
    expect(again).toContain('value="_other" checked');
    await send(web, link, again, ["unit", "_other"], { other: "the fuzz suite" });
    expect(loadQuestion(web.box, id).card.answer).toEqual({
      text: "Unit tests, the fuzz suite",
      selected: "unit,_other",
    });
  });

  it("refuses boxes ticked on a page opened before the options were edited", async () => {
    const { web, id, link, page } = await opened();
    const path = join(web.box.dir, loadQuestion(web.box, id).rel);
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace("label: Lint", "label: Lint and format"),
    );
    const res = await send(web, link, page, ["unit", "lint"]);
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("edited after you opened it");
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
    expect(web.jobs()).toEqual([]);
  });
});
