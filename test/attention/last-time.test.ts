// Story: the boxholder is shown a question like one they answered on 3 Mar. The presentation
// says "Last time (3 Mar): Finance", on Telegram (the emulator) and at the terminal; a question
// like nothing answered says nothing of the kind.

import { describe, expect, it } from "vitest";
import { questionText } from "../../bridges/terminal/render.ts";
import type { Question } from "../../src/card/question.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { atTime, selectCard, T0, textCard } from "../support/box.ts";
import { openHarness, presentQuestion, useEmulator } from "../support/telegram.ts";

const emulator = useEmulator();
const ANSWERED_AT = "2026-03-03T10:00:00Z";

describe("Last time", () => {
  it("a question like an answered one shows that answer and the day it was given", async () => {
    const h = await openHarness(emulator());
    const first = await h.ask(selectCard({ "asked-at": "2026-03-02T09:00:00Z" }));
    await answerQuestion(atTime(h, ANSWERED_AT), first, { text: "finance" }, { via: "cli" });
    await h.slot.reconcile();

    const { message } = await presentQuestion(
      h,
      selectCard({ prompt: "Where do photographed receipts from the bakery belong?" }),
    );
    expect(message.text).toContain("↩️ <b>Last time (3 Mar):</b> Finance");
  });

  it("an unrelated question shows no Last time", async () => {
    const h = await openHarness(emulator());
    const first = await h.ask(selectCard({ "asked-at": "2026-03-02T09:00:00Z" }));
    await answerQuestion(atTime(h, ANSWERED_AT), first, { text: "finance" }, { via: "cli" });
    const { message } = await presentQuestion(h, textCard());
    expect(message.text).not.toContain("Last time");
  });

  it("at the terminal: Last time (3 Mar): Finance", () => {
    const card = { status: "pending", "asked-at": T0, ...selectCard() } as Question;
    const text = questionText(card, 0, new Date(T0), { day: "3 Mar", answer: "Finance" });
    expect(text).toContain("  Last time (3 Mar): Finance\n");
  });
});
