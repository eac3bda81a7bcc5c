// "Later" on a question's page: the boxholder puts a pending question off to a chosen time; the
// card is untouched, the slot leaves it alone until then, and the page says when it comes back.

import { afterEach, describe, expect, it } from "vitest";
import { loadQuestion } from "../../src/questions/store.ts";
import { LaterStore } from "../../src/slot/attention/later.ts";
import { createSlot } from "../../src/slot/slot.ts";
import { cleanupBoxes, gitLog, selectCard } from "../support/box.ts";
import { formTokenIn, postForm, webFixture } from "./web-support.ts";

afterEach(cleanupBoxes);

describe("later on the web page", () => {
  it("puts a pending question off until tomorrow morning without touching its card", async () => {
    // Friday 10 July 2026, 09:00 in the box's zone (UTC here).
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const link = web.link(id);
    const page = await (await web.app.request(link)).text();
    expect(page).toContain('name="later" value="evening"');
    expect(page).toContain("Tomorrow morning (09:00)");
    expect(page).toContain("Next week (Monday 09:00)");
    // The boxholder may have no chat at all: the words name no surface.
    expect(page).toContain("Later: put it off until");
    expect(page).not.toMatch(/\bchat\b/);
    const commits = (await gitLog(web.box.dir)).length;

    const res = await postForm(web.app, link, {
      form: formTokenIn(page),
      action: "later",
      later: "morning",
    });
    expect(res.status).toBe(303);
    expect(new LaterStore(web.box.ledger.db).until(id)).toBe("2026-07-11T09:00:00Z");
    expect(web.transitions).toEqual([{ id, action: "later", via: "web" }]);
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
    expect(await gitLog(web.box.dir)).toHaveLength(commits);
    expect(createSlot({ core: web.box }).waiting().top).toBeUndefined();

    const after = await (await web.app.request(link)).text();
    expect(after).toContain("Put off: back tomorrow at 09:00.");
    expect(after).not.toMatch(/\bchat\b/);
  });

  it("refuses a time that is not offered any more, with a line saying so", async () => {
    const web = await webFixture({ time: "2026-07-10T20:00:00Z" });
    const id = await web.ask(selectCard());
    const link = web.link(id);
    const page = await (await web.app.request(link)).text();
    expect(page).not.toContain('value="evening"');
    const res = await postForm(web.app, link, {
      form: formTokenIn(page),
      action: "later",
      later: "evening",
    });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("That time has passed or is not one of the choices");
    expect(new LaterStore(web.box.ledger.db).until(id)).toBeUndefined();
  });
});
