// Story on the emulator, with the box clock frozen: the boxholder taps [⏳ +7 days] on a
// question about to expire, and [↩ Same as last time] on a question like one answered before.
// Each tap goes through the judge and the transition core: one commit, and nothing is recorded
// without the tap.

import { describe, expect, it } from "vitest";
import { ageQuestions } from "../../src/questions/aging.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { extendQuestion } from "../../src/questions/extend.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import {
  atTime,
  gitLog,
  jobRel,
  lastCommitTrailers,
  multiselectCard,
  readBoxFile,
  selectCard,
  T0,
  textCard,
} from "../support/box.ts";
import {
  buttonData,
  type Harness,
  openHarness,
  presentQuestion,
  useEmulator,
} from "../support/telegram.ts";

const emulator = useEmulator();

function plus(days: number): string {
  return new Date(Date.parse(T0) + days * 86_400_000).toISOString().replace(".000Z", "Z");
}

/** The old message says the question was extended and shown again; the new one, 12 days. */
type Shown = Awaited<ReturnType<typeof presentQuestion>>["message"];
async function shownAgainIn12Days(
  h: Awaited<ReturnType<typeof openHarness>>,
  message: Shown,
): Promise<Shown> {
  const edited = h.sent("editMessageText").at(-1)?.payload;
  expect(edited?.message_id).toBe(message.messageId);
  expect(edited?.text).toContain("Extended: it expires in 12 days; shown again below");
  const again = await h.lastMessage();
  expect(again.messageId).not.toBe(message.messageId);
  expect(again.text).toContain("Expires in 12 days.");
  return again;
}

describe("[⏳ +7 days] on a question about to expire", () => {
  it("moves the expiry: the card in one commit, the question shown again with its new deadline, the nudge and expiry later", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, selectCard({ "expires-after": "P5D" }));
    expect(message.text).toContain("Expires in 5 days.");
    const commits = (await gitLog(h.dir)).length;

    await h.owner.tap(buttonData(message, "⏳ +7 days"), message.messageId);
    await h.pump();

    expect(loadQuestion(h, id).card["expires-after"]).toBe("P12D");
    expect(await gitLog(h.dir)).toHaveLength(commits + 1);
    expect(await lastCommitTrailers(h.dir)).toMatchObject({
      "Extended-Via": "telegram",
      "Expires-After": "P12D",
      Question: id,
    });
    const answered = h.sent("answerCallbackQuery").at(-1)?.payload.text;
    expect(answered).toBe("⏳ Extended: it expires in 12 days.");
    const again = await shownAgainIn12Days(h, message);
    expect(again.buttons.map((b) => b.text)).not.toContain("⏳ +7 days");

    // The nudge was due at half of P5D (day 2.5); now at half of P12D (day 6); expiry at day 12.
    const nudged: string[] = [];
    const nudge = async (q: { id: string }) => {
      nudged.push(q.id);
      return true;
    };
    await ageQuestions(atTime(h, plus(3)), { nudge });
    expect(nudged).toEqual([]);
    await ageQuestions(atTime(h, plus(6)), { nudge });
    expect(nudged).toEqual([id]);
    expect((await ageQuestions(atTime(h, plus(11.9)), { nudge })).expired).toEqual([]);
    expect((await ageQuestions(atTime(h, plus(12)), { nudge })).expired).toEqual([id]);
  });

  it("given more time elsewhere (qbridge extend), the question on screen is shown again with its new deadline, once", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, selectCard({ "expires-after": "P5D" }));
    expect(message.text).toContain("Expires in 5 days.");

    await extendQuestion(h, id, "P7D", { via: "cli" });
    await h.slot.reconcile();
    await h.pump();

    await shownAgainIn12Days(h, message);
    expect(h.slot.current()?.questionId).toBe(id);

    // The new message shows the deadline the card has: the next look changes nothing.
    const sent = h.sent("sendMessage").length;
    await h.slot.reconcile();
    await h.pump();
    expect(h.sent("sendMessage")).toHaveLength(sent);
  });

  it("is not offered while the deadline is more than 7 days away", async () => {
    const h = await openHarness(emulator());
    const { message } = await presentQuestion(h, selectCard());
    expect(message.buttons.map((b) => b.text)).not.toContain("⏳ +7 days");
  });
});

/** A question like the next ones, asked on 2 March and answered "taxes" on 3 March; its id. */
async function answeredLastTime(h: Harness): Promise<string> {
  const first = await h.ask(selectCard({ "asked-at": "2026-03-02T09:00:00Z" }));
  await answerQuestion(atTime(h, "2026-03-03T10:00:00Z"), first, { text: "taxes" }, { via: "cli" });
  return first;
}

describe("[↩ Same as last time]", () => {
  it("records last time's answer through the core with the note, only on the tap", async () => {
    const h = await openHarness(emulator());
    const first = await answeredLastTime(h);
    const { id, message } = await presentQuestion(
      h,
      selectCard({ prompt: "Where do photographed receipts from the bakery belong?" }),
    );
    expect(message.text).toContain("↩️ <b>Last time (3 Mar):</b> Taxes");
    // Shown, not answered: nothing is recorded without the tap.
    expect(loadQuestion(h, id).card.status).toBe("pending");
    const commits = (await gitLog(h.dir)).length;

    await h.owner.tap(buttonData(message, "↩ Same as last time: Taxes"), message.messageId);
    await h.pump();

    const card = loadQuestion(h, id).card;
    expect(card.status).toBe("answered");
    expect(card.answer).toEqual({ text: "Taxes", selected: "taxes", note: `same as ${first}` });
    expect(card["answered-via"]).toBe("telegram");
    expect(await gitLog(h.dir)).toHaveLength(commits + 1);
    expect(readBoxFile(h.dir, jobRel(id))).toContain("Taxes");
    expect(h.sent("answerCallbackQuery").at(-1)?.payload.text).toBe("✅ Recorded: Taxes");
  });

  it("is not offered on a question like nothing answered, nor on an irreversible one", async () => {
    const h = await openHarness(emulator());
    await answeredLastTime(h);
    const unrelated = await presentQuestion(h, textCard());
    expect(unrelated.message.buttons.some((b) => b.text.startsWith("↩"))).toBe(false);
    await h.owner.tap(buttonData(unrelated.message, "🚫 Dismiss"), unrelated.message.messageId);
    await h.pump();
    const risky = await presentQuestion(
      h,
      selectCard({ prompt: "Where do receipts from the bakery belong?", irreversible: true }),
    );
    expect(risky.message.text).toContain("Last time (3 Mar):</b> Taxes");
    expect(risky.message.buttons.some((b) => b.text.startsWith("↩"))).toBe(false);
  });
});

describe("[↩ Same as last time] and [⏳ +7 days] when the choices come back", () => {
  /** The buttons the message carries now: the keyboard it was last edited with. */
  function buttonsNow(h: Harness, message: Shown): Shown {
    const markup = h.sent("editMessageReplyMarkup").at(-1)?.payload.reply_markup as {
      inline_keyboard: Shown["buttons"][];
    };
    return { ...message, buttons: markup.inline_keyboard.flat() };
  }

  it("stay on the message after [⏰ Later] then [↩️ Back], and still record", async () => {
    const h = await openHarness(emulator());
    const first = await answeredLastTime(h);
    const { id, message } = await presentQuestion(
      h,
      selectCard({
        prompt: "Where do photographed receipts from the bakery belong?",
        "expires-after": "P5D",
      }),
    );
    const offered = message.buttons.map((b) => b.text);
    expect(offered).toContain("↩ Same as last time: Taxes");
    expect(offered).toContain("⏳ +7 days");

    await h.owner.tap(buttonData(message, "⏰ Later"), message.messageId);
    await h.pump();
    await h.owner.tap(buttonData(buttonsNow(h, message), "↩️ Back"), message.messageId);
    await h.pump();
    const back = buttonsNow(h, message);
    expect(back.buttons.map((b) => b.text)).toEqual(offered);

    await h.owner.tap(buttonData(back, "↩ Same as last time"), message.messageId);
    await h.pump();
    expect(loadQuestion(h, id).card.answer).toEqual({
      text: "Taxes",
      selected: "taxes",
      note: `same as ${first}`,
    });
  });

  it("stay on a multi-select's message as its options are picked", async () => {
    const h = await openHarness(emulator());
    const { message } = await presentQuestion(h, multiselectCard({ "expires-after": "P5D" }));
    expect(message.buttons.map((b) => b.text)).toContain("⏳ +7 days");
    await h.owner.tap(buttonData(message, "☐ a)"), message.messageId);
    await h.pump();
    const picked = buttonsNow(h, message).buttons.map((b) => b.text);
    expect(picked).toContain("☑ a) Unit tests");
    expect(picked).toContain("⏳ +7 days");
  });
});
