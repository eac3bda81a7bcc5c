// Story: every presentation says when its question expires and what the asker does safely
// meanwhile: the Telegram message (on the emulator), the terminal and the web page.

import { describe, expect, it } from "vitest";
import { questionText } from "../../bridges/terminal/render.ts";
import type { Question } from "../../src/card/question.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { atTime, gitLog, selectCard, T0 } from "../support/box.ts";
import { openHarness, presentQuestion, useEmulator } from "../support/telegram.ts";
import { formTokenIn, postForm, webFixture } from "../web/web-support.ts";

const emulator = useEmulator();
const WAITING = "Keep the receipt in intake.";

describe("a presentation shows the deadline and the safe action", () => {
  it("in Telegram: Expires in 5 days and While waiting", async () => {
    const h = await openHarness(emulator());
    const { message } = await presentQuestion(
      h,
      selectCard({ "expires-after": "P5D", "while-waiting": WAITING }),
    );
    expect(message.text).toContain("Expires in 5 days.");
    expect(message.text).toContain(`⏳ <b>While waiting:</b> ${WAITING}`);
  });

  it("at the terminal: It expires in 29 days an hour later, and the safe action", () => {
    const card = { status: "pending", "asked-at": T0, ...selectCard() } as Question;
    const text = questionText(
      { ...card, "while-waiting": WAITING },
      0,
      new Date(Date.parse(T0) + 3_600_000),
    );
    expect(text).toContain("It expires in 29 days.");
    expect(text).toContain(`While waiting: ${WAITING}`);
  });

  it("on the web page: expires in 2 hours with the date, and the safe action", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard({ "expires-after": "PT2H", "while-waiting": WAITING }));
    const page = await (await web.app.request(web.link(id))).text();
    expect(page).toContain(
      '<span id="deadline">expires in 2 hours (<time datetime="2026-07-10T11:00:00.000Z">10 Jul 2026, 11:00</time>)</span>',
    );
    expect(page).toContain(`<strong>While waiting:</strong> ${WAITING}`);
  });

  it("on the web page: Last time, and ⏳ Give it 7 more days extends it in one commit", async () => {
    const web = await webFixture();
    const first = await web.ask(selectCard({ "asked-at": "2026-03-02T09:00:00Z" }));
    await answerQuestion(
      atTime(web.box, "2026-03-03T10:00:00Z"),
      first,
      { text: "finance" },
      { via: "cli" },
    );
    const id = await web.ask(
      selectCard({ prompt: "Where do photographed receipts from the bakery belong?" }),
    );
    const page = await (await web.app.request(web.link(id))).text();
    expect(page).toContain("<strong>Last time (3 Mar):</strong> Finance");
    const commits = (await gitLog(web.box.dir)).length;
    const res = await postForm(web.app, web.link(id), {
      form: formTokenIn(page),
      action: "extend",
    });
    expect(res.status).toBe(303);
    expect(loadQuestion(web.box, id).card["expires-after"]).toBe("P37D");
    expect(await gitLog(web.box.dir)).toHaveLength(commits + 1);
    expect(web.transitions).toContainEqual({ id, action: "extended", via: "web" });
    const after = await (await web.app.request(web.link(id))).text();
    expect(after).toContain("expires in 37 days");
  });
});
