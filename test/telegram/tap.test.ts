// The boxholder taps a button: the answer is committed with its follow-up job, the tap is
// acknowledged with what was recorded, the message loses its buttons, the next question appears.

import { describe, expect, it } from "vitest";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { gitLog, selectCard, textCard } from "../support/box.ts";
import { buttonData, OWNER, openHarness, useEmulator } from "../support/telegram.ts";

const emulator = useEmulator();

describe("a tap on an option", () => {
  it("commits the answer with a job, acknowledges it, edits the message and presents the next", async () => {
    const h = await openHarness(emulator());
    const first = await h.ask(selectCard({ priority: "high" }));
    const second = await h.ask(textCard());
    await h.slot.reconcile();

    const shown = await h.lastMessage();
    expect(shown.chatId).toBe(OWNER);
    expect(shown.text).toContain("Where do photographed receipts belong?");
    expect(shown.buttons.map((b) => b.text)).toEqual([
      "a) Finance",
      "b) Taxes",
      "c) Somewhere else",
      "🅿️ Park",
      "⏰ Later",
      "🚫 Dismiss",
    ]);

    await h.owner.tap(buttonData(shown, "b)"), shown.messageId);
    await h.pump();

    const card = loadQuestion(h, first).card;
    expect(card.status).toBe("answered");
    expect(card.answer).toEqual({ text: "Taxes", selected: "taxes" });
    expect(card["answered-via"]).toBe("telegram");
    expect(card["answered-by"]).toBe(String(OWNER));
    expect(listJobs(h).map((j) => j.job?.["question-id"])).toEqual([first]);
    expect((await gitLog(h.dir)).filter((s) => s.startsWith("answer:"))).toHaveLength(1);

    const methods = h.calls.map((c) => c.method);
    const ack = methods.indexOf("answerCallbackQuery");
    const edit = methods.indexOf("editMessageText");
    const next = methods.lastIndexOf("sendMessage");
    expect(ack).toBeGreaterThan(-1);
    expect(ack).toBeLessThan(edit);
    expect(edit).toBeLessThan(next);
    expect(h.sent("answerCallbackQuery")[0]?.payload.text).toBe("✅ Recorded: Taxes");

    const edited = h.sent("editMessageText")[0]?.payload;
    expect(edited?.message_id).toBe(shown.messageId);
    expect(edited?.text).toContain("Answered via telegram: Taxes");
    expect(edited?.reply_markup).toEqual({ inline_keyboard: [] });

    const nextShown = await h.lastMessage();
    expect(nextShown.text).toContain("What is the name of the person");
    expect(h.slot.current()?.questionId).toBe(second);
  });
});

describe("a tap on the option for one's own words", () => {
  it("says how to type them, and the words typed that way are recorded", async () => {
    const h = await openHarness(emulator());
    const id = await h.ask(selectCard());
    await h.slot.reconcile();
    const shown = await h.lastMessage();
    await h.owner.tap(buttonData(shown, "c) Somewhere else"), shown.messageId);
    await h.pump();
    const hint = String(h.sent("answerCallbackQuery").at(-1)?.payload.text);
    expect(loadQuestion(h, id).card.status).toBe("pending");
    // Done as the hint says: its example typed as it stands.
    const example = /e\.g\. "([^"]+)"/.exec(hint)?.[1];
    expect(example).toBeDefined();
    await h.owner.say(example as string);
    await h.pump();
    expect(loadQuestion(h, id).card.answer).toMatchObject({ selected: "_other" });
    expect(listJobs(h)).toHaveLength(1);
  });

  it('typed alone, its letter gets the same hint, not an "I could not match"', async () => {
    const h = await openHarness(emulator());
    const id = await h.ask(selectCard());
    await h.slot.reconcile();
    const tapped = await h.lastMessage();
    await h.owner.tap(buttonData(tapped, "c) Somewhere else"), tapped.messageId);
    await h.owner.say("c");
    await h.pump();
    const hint = String(h.sent("answerCallbackQuery").at(-1)?.payload.text);
    expect(hint).toContain('"c - ');
    expect(h.sent("sendMessage").at(-1)?.payload.text).toBe(hint.replaceAll('"', "&quot;"));
    expect(loadQuestion(h, id).card.status).toBe("pending");
  });
});
