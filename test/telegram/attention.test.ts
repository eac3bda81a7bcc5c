// The boxholder's attention on the emulator, with the box clock frozen and moved by hand: quiet
// hours (22:00-07:30 in Berlin) hold all but `high` questions and every nudge; the first
// question after them comes behind one line saying how many arrived overnight; a `low`
// question by day arrives silently; "Later" takes a question out of the slot until its time.

import { describe, expect, it } from "vitest";
import { createClock } from "../../src/box/clock.ts";
import { ageQuestions } from "../../src/questions/aging.ts";
import { questionOutcome } from "../../src/questions/outcome.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import type { Attention } from "../../src/slot/attention/attention.ts";
import { heldUntilOf } from "../../src/slot/attention/held-until.ts";
import { parseQuietHours } from "../../src/slot/attention/quiet-hours.ts";
import { selectCard, textCard } from "../support/box.ts";
import {
  buttonData,
  type Harness,
  openHarness,
  toBotMessage,
  useEmulator,
} from "../support/telegram.ts";

const emulator = useEmulator();

const BERLIN: Attention = {
  quietHours: parseQuietHours("22:00-07:30"),
  timeZone: "Europe/Berlin",
};

/** Sets the box clock to a Berlin wall time in July (UTC+2): "2026-07-10 23:00". */
function at(h: Harness, berlin: string): void {
  const [day, time] = berlin.split(" ");
  const utc = new Date(`${day}T${time}:00+02:00`).toISOString();
  h.box.clock = createClock(utc);
}

function texts(h: Harness): string[] {
  return h.sent("sendMessage").map((c) => String(c.payload.text));
}

describe("quiet hours", () => {
  it("holds a normal question filed at 23:00 until 07:30, then sends it after one line saying how many arrived overnight", async () => {
    const h = await openHarness(emulator(), { attention: BERLIN });
    at(h, "2026-07-10 23:00");
    const first = await h.ask(selectCard());
    at(h, "2026-07-11 01:10");
    await h.ask(textCard());
    await h.slot.reconcile();
    expect(h.sent("sendMessage")).toEqual([]);

    const held = questionOutcome(loadQuestion(h, first), {
      now: h.box.clock.now(),
      heldUntil: heldUntilOf(h, BERLIN),
    });
    expect(held.heldUntil).toBe("2026-07-11T05:30:00Z");

    at(h, "2026-07-11 07:29");
    await h.slot.reconcile();
    expect(h.sent("sendMessage")).toEqual([]);

    at(h, "2026-07-11 07:30");
    await h.slot.reconcile();
    expect(texts(h)[0]).toBe("2 questions arrived overnight; here is the first");
    expect(texts(h)[1]).toContain("Where do photographed receipts belong?");
    expect(texts(h)).toHaveLength(2);
    expect(h.slot.current()?.questionId).toBe(first);
    const shown = questionOutcome(loadQuestion(h, first), {
      now: h.box.clock.now(),
      heldUntil: heldUntilOf(h, BERLIN),
    });
    expect(shown.heldUntil).toBeUndefined();

    // The line is said once per night: the next question after an answer comes alone.
    await h.slot.park();
    expect(texts(h)).toHaveLength(3);
    expect(texts(h)[2]).toContain("What is the name of the person");
  });

  it("sends a high question filed at 23:00 at once, with sound", async () => {
    const h = await openHarness(emulator(), { attention: BERLIN });
    at(h, "2026-07-10 23:00");
    await h.ask(selectCard({ prompt: "Normal at night?" }));
    const high = await h.ask(selectCard({ priority: "high" }));
    await h.slot.reconcile();

    const sends = h.sent("sendMessage");
    expect(sends).toHaveLength(1);
    expect(sends[0]?.payload.text).toContain("Where do photographed receipts belong?");
    expect(sends[0]?.payload.disable_notification).toBeUndefined();
    expect(h.slot.current()?.questionId).toBe(high);
  });

  it("sends a low question by day silently and a high one with sound", async () => {
    const h = await openHarness(emulator(), { attention: BERLIN });
    at(h, "2026-07-10 14:00");
    const low = await h.ask(selectCard({ priority: "low" }));
    await h.slot.reconcile();
    const quietly = h.sent("sendMessage")[0];
    expect(quietly?.payload.disable_notification).toBe(true);
    expect(h.slot.current()?.questionId).toBe(low);

    await h.slot.park();
    await h.ask(selectCard({ priority: "high", prompt: "Loud?" }));
    await h.slot.reconcile();
    const loud = h.sent("sendMessage").at(-1);
    expect(loud?.payload.text).toContain("Loud?");
    expect(loud?.payload.disable_notification).toBeUndefined();
  });

  it("keeps a nudge due at 02:00 until 07:30", async () => {
    const h = await openHarness(emulator(), { attention: BERLIN });
    at(h, "2026-07-10 12:00");
    // Nudged at half of 28 hours: 02:00 the next night.
    const id = await h.ask(selectCard({ "expires-after": "PT28H" }));
    await h.slot.reconcile();
    const shown = toBotMessage(h.sent("sendMessage")[0] as never);
    const before = h.sent("sendMessage").length;

    at(h, "2026-07-11 02:00");
    const night = await ageQuestions(h, { nudge: h.slot.nudger() });
    expect(night.nudgeDue).toEqual([id]);
    expect(h.sent("sendMessage")).toHaveLength(before);

    at(h, "2026-07-11 07:30");
    const morning = await ageQuestions(h, { nudge: h.slot.nudger() });
    expect(morning.nudged).toEqual([id]);
    const nudge = h.sent("sendMessage").at(-1);
    expect(nudge?.payload.text).toContain("This question has waited");
    expect(nudge?.payload.reply_parameters).toMatchObject({ message_id: shown.messageId });
  });
});

describe("later", () => {
  it("keeps a nudge due while the question is put off until it comes back", async () => {
    const h = await openHarness(emulator());
    at(h, "2026-07-10 12:00");
    // Nudged at half of 4 hours: 14:00.
    const id = await h.ask(selectCard({ "expires-after": "PT4H" }));
    await h.slot.reconcile();
    await h.slot.putOff(id, new Date("2026-07-10T13:00:00Z"));
    const before = h.sent("sendMessage").length;

    at(h, "2026-07-10 14:00");
    expect((await ageQuestions(h, { nudge: h.slot.nudger() })).nudgeDue).toEqual([id]);
    expect(h.sent("sendMessage")).toHaveLength(before);

    at(h, "2026-07-10 15:00");
    expect((await ageQuestions(h, { nudge: h.slot.nudger() })).nudged).toEqual([id]);
  });

  it("[⏰ Later] -> tomorrow morning takes the question out of the slot and brings it back at 09:00", async () => {
    const h = await openHarness(emulator(), { attention: BERLIN });
    at(h, "2026-07-10 15:00");
    const first = await h.ask(selectCard({ priority: "high" }));
    const second = await h.ask(textCard());
    await h.slot.reconcile();
    const shown = await h.lastMessage();
    expect(h.slot.current()?.questionId).toBe(first);

    /** The buttons an edit of the shown message's keyboard left on it. */
    const markupOf = (payload: Record<string, unknown> | undefined) =>
      toBotMessage({
        method: "sendMessage",
        payload: { text: "", reply_markup: payload?.reply_markup },
        result: { message_id: shown.messageId, chat: { id: shown.chatId } },
      });
    await h.owner.tap(buttonData(shown, "⏰ Later"), shown.messageId);
    await h.pump();
    expect(h.sent("answerCallbackQuery").at(-1)?.payload.text).toBe("When should it come back?");
    const menu = h.sent("editMessageReplyMarkup").at(-1)?.payload;
    expect(menu?.message_id).toBe(shown.messageId);
    const times = markupOf(menu);
    expect(times.buttons.map((b) => b.text)).toEqual([
      "⏰ This evening (19:00)",
      "⏰ Tomorrow morning (09:00)",
      "⏰ Next week (Monday 09:00)",
      "↩️ Back",
    ]);

    // Back shows the question's own buttons again; Later from there offers the times anew.
    await h.owner.tap(buttonData(times, "↩️ Back"), shown.messageId);
    await h.pump();
    const back = markupOf(h.sent("editMessageReplyMarkup").at(-1)?.payload);
    expect(back.buttons.map((b) => b.text)).toContain("⏰ Later");
    await h.owner.tap(buttonData(back, "⏰ Later"), shown.messageId);
    await h.pump();
    const again = markupOf(h.sent("editMessageReplyMarkup").at(-1)?.payload);

    await h.owner.tap(buttonData(again, "⏰ Tomorrow"), shown.messageId);
    await h.pump();
    expect(h.sent("answerCallbackQuery").at(-1)?.payload.text).toBe(
      "⏰ Later: back tomorrow at 09:00.",
    );
    const edit = h.sent("editMessageText").at(-1)?.payload;
    expect(edit?.message_id).toBe(shown.messageId);
    expect(edit?.text).toContain("Later: back tomorrow at 09:00; it stays pending");
    expect(h.slot.current()?.questionId).toBe(second);
    expect(loadQuestion(h, first).card.status).toBe("pending");
    const held = questionOutcome(loadQuestion(h, first), {
      now: h.box.clock.now(),
      heldUntil: heldUntilOf(h, BERLIN),
    });
    expect(held.heldUntil).toBe("2026-07-11T07:00:00Z");

    // The slot frees in the evening; the put-off question stays away through the night.
    at(h, "2026-07-10 20:00");
    await h.slot.dismiss(second, { via: "telegram" }).then((c) => h.slot.settle(c.closed));
    expect(h.slot.current()).toBeUndefined();
    at(h, "2026-07-11 08:59");
    await h.slot.reconcile();
    expect(h.slot.current()).toBeUndefined();

    at(h, "2026-07-11 09:00");
    await h.slot.reconcile();
    expect(h.slot.current()?.questionId).toBe(first);
    expect((await h.lastMessage()).text).toContain("Where do photographed receipts belong?");
  });

  it("/later offers the times under the open question, and a time's button puts it off", async () => {
    const h = await openHarness(emulator(), { attention: BERLIN });
    at(h, "2026-07-10 20:00");
    const id = await h.ask(selectCard());
    await h.slot.reconcile();
    const shown = await h.lastMessage();

    await h.owner.command("/later");
    await h.pump();
    const offer = await h.lastMessage();
    expect(offer.text).toBe("When should it come back?");
    expect(h.sent("sendMessage").at(-1)?.payload.reply_parameters).toMatchObject({
      message_id: shown.messageId,
    });
    // Past 19:00 there is no "this evening".
    expect(offer.buttons.map((b) => b.text)).toEqual([
      "⏰ Tomorrow morning (09:00)",
      "⏰ Next week (Monday 09:00)",
      "↩️ Back",
    ]);

    await h.owner.tap(buttonData(offer, "⏰ Next week"), offer.messageId);
    await h.pump();
    expect(h.sent("answerCallbackQuery").at(-1)?.payload.text).toBe(
      "⏰ Later: back on Monday at 09:00.",
    );
    expect(h.slot.current()).toBeUndefined();
    expect(h.slot.later.until(id)).toBe("2026-07-13T07:00:00Z");
  });
});
