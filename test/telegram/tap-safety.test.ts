// Taps that must not answer: a stranger's, a forged token, a tap on a question closed or edited
// meanwhile, and taps that must not answer twice: a replayed callback id, a double tap, a Park
// delivered again. Each is refused or replayed with the right text, and git holds exactly the
// jobs it should. None of it needs a replay keyed by callback id: the token and the card settle
// every repeat.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answerQuestion } from "../../src/questions/answer.ts";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { withdrawQuestion } from "../../src/questions/withdraw.ts";
import { confirmCard, gitLog, selectCard } from "../support/box.ts";
import {
  buttonData,
  type Harness,
  OWNER,
  openHarness,
  presentQuestion,
  useEmulator,
} from "../support/telegram.ts";

const emulator = useEmulator();

async function presented(h: Harness, card = selectCard()) {
  const id = await h.ask(card);
  await h.slot.reconcile();
  return { id, message: await h.lastMessage() };
}

/** The buttons of the n-th keyboard the bot put on a message by editMessageReplyMarkup. */
function keyboardOf(h: Harness, n: number): { text: string; callback_data: string }[] {
  const markup = h.sent("editMessageReplyMarkup")[n]?.payload.reply_markup as
    | { inline_keyboard: { text: string; callback_data: string }[][] }
    | undefined;
  return markup?.inline_keyboard.flat() ?? [];
}

const acks = (h: Harness) => h.sent("answerCallbackQuery").map((c) => c.payload.text);
const answerCommits = async (h: Harness) =>
  (await gitLog(h.dir)).filter((s) => s.startsWith("answer:")).length;

describe("taps that are refused", () => {
  it("a stranger's tap on the boxholder's button changes nothing", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presented(h);
    await h.stranger.tap(buttonData(message, "a)"), message.messageId);
    await h.pump();
    expect(acks(h)).toEqual([expect.stringContaining("answers only its owner")]);
    expect(loadQuestion(h, id).card.status).toBe("pending");
    expect(h.sent("editMessageText")).toHaveLength(0);
    expect(listJobs(h)).toHaveLength(0);
    expect(h.ledger.auditFor().some((a) => a.outcome === "refused:stranger")).toBe(true);
  });

  it("a forged token is refused and changes nothing", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presented(h);
    await h.owner.tap("forged-token-00000", message.messageId);
    await h.pump();
    expect(acks(h)).toEqual([expect.stringContaining("not known here")]);
    expect(loadQuestion(h, id).card.status).toBe("pending");
    expect(listJobs(h)).toHaveLength(0);
  });

  it("a tap on a question answered meanwhile from the CLI is refused, the message updated, the next shown", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presented(h, selectCard({ priority: "high" }));
    await h.ask(confirmCard());
    await answerQuestion(h, id, { text: "Finance" }, { via: "cli" });
    await h.owner.tap(buttonData(message, "b)"), message.messageId);
    await h.pump();
    expect(acks(h)[0]).toContain("answered via cli: Finance");
    expect(loadQuestion(h, id).card.answer?.text).toBe("Finance");
    expect(await answerCommits(h)).toBe(1);
    expect(h.sent("editMessageText")[0]?.payload.text).toContain("Answered via cli: Finance");
    expect((await h.lastMessage()).text).toContain("May I delete backups");
  });

  it("a tap on a question withdrawn meanwhile says so in a sentence that reads right", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presented(h);
    await withdrawQuestion(h, id, { via: "cli" }, { reason: "sorted by hand" });
    await h.owner.tap(buttonData(message, "b)"), message.messageId);
    await h.pump();
    expect(acks(h)).toEqual([
      "Not recorded: meanwhile this question was withdrawn by the asker: sorted by hand.",
    ]);
    expect(loadQuestion(h, id).card.status).toBe("withdrawn");
    expect(listJobs(h)).toHaveLength(0);
  });

  it("a tap after the card's options were edited is refused and the question shown again", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presented(h);
    const path = join(h.dir, loadQuestion(h, id).rel);
    writeFileSync(path, readFileSync(path, "utf8").replace("label: Taxes", "label: Tax office"));
    await h.owner.tap(buttonData(message, "b)"), message.messageId);
    await h.pump();
    expect(acks(h)[0]).toContain("edited since it was shown");
    expect(loadQuestion(h, id).card.status).toBe("pending");
    expect(listJobs(h)).toHaveLength(0);
    const again = await h.lastMessage();
    expect(again.messageId).not.toBe(message.messageId);
    expect(again.buttons.map((b) => b.text)).toContain("b) Tax office");
  });
});

describe("taps that must not answer twice", () => {
  it("a replayed callback id replays the recorded answer and creates no second job", async () => {
    const h = await openHarness(emulator());
    const { message } = await presented(h);
    await h.owner.tap(buttonData(message, "a)"), message.messageId);
    const [update] = await h.pump();
    if (!update) throw new Error("no update");
    await h.deliver({ ...update, update_id: update.update_id + 1000 });
    expect(acks(h)).toEqual(["✅ Recorded: Finance", "✅ Recorded: Finance"]);
    expect(h.sent("answerCallbackQuery").map((c) => c.payload.callback_query_id)).toEqual([
      update.callback_query?.id,
      update.callback_query?.id,
    ]);
    expect(await answerCommits(h)).toBe(1);
    expect(listJobs(h)).toHaveLength(1);
  });

  it("a double tap (two callbacks, one button) replays the first answer and creates no second job", async () => {
    const h = await openHarness(emulator());
    const { message } = await presented(h);
    await h.owner.tap(buttonData(message, "a)"), message.messageId);
    await h.owner.tap(buttonData(message, "b)"), message.messageId);
    await h.pump();
    expect(acks(h)).toEqual(["✅ Recorded: Finance", "✅ Recorded: Finance"]);
    expect(await answerCommits(h)).toBe(1);
    expect(listJobs(h)).toHaveLength(1);
  });

  it("a Park callback delivered again parks nothing twice: the next question stays shown", async () => {
    const h = await openHarness(emulator());
    const first = await presented(h, selectCard({ prompt: "First: where do receipts go?" }));
    await h.ask(selectCard({ prompt: "Second: where do invoices go?" }));
    await h.owner.tap(buttonData(first.message, "🅿️ Park"), first.message.messageId);
    const [update] = await h.pump();
    if (!update) throw new Error("no update");
    const second = await h.lastMessage();
    expect(second.text).toContain("Second: where do invoices go?");
    const shownBefore = h.sent("sendMessage").length;

    // The same callback again, as a redelivery that missed the processed-update mark brings it.
    await h.deliver({ ...update, update_id: update.update_id + 1000 });
    expect(acks(h)).toEqual([
      "Parked: it stays pending behind the queue.",
      expect.stringContaining("This question is no longer open here: parked"),
    ]);
    expect(h.sent("sendMessage")).toHaveLength(shownBefore);
    const open = h.slot.current();
    expect(open?.questionId).not.toBe(first.id);
    expect(open?.messageId).toBe(String(second.messageId));
    expect(h.slot.presentations.parked()).toEqual([first.id]);
  });

  it("the same update delivered twice is handled once", async () => {
    const h = await openHarness(emulator());
    const { message } = await presented(h);
    await h.owner.tap(buttonData(message, "a)"), message.messageId);
    const [update] = await h.pump();
    if (!update) throw new Error("no update");
    await h.deliver(update);
    expect(acks(h)).toEqual(["✅ Recorded: Finance"]);
    expect(await answerCommits(h)).toBe(1);
  });
});

describe("a tap whose answer was committed before a crash cut its handling short", () => {
  it("is confirmed as recorded when redelivered, and creates no second job", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, selectCard());
    // The service committed this tap's answer, then died before it recorded the handling.
    await answerQuestion(h, id, { text: "taxes" }, { via: "telegram", by: String(OWNER) });
    await h.slot.reconcile();
    await h.owner.tap(buttonData(message, "b)"), message.messageId);
    await h.pump();
    expect(acks(h).at(-1)).toBe("✅ Recorded: Taxes");
    expect(listJobs(h)).toHaveLength(1);
    expect(await answerCommits(h)).toBe(1);
  });
});

describe("an irreversible question", () => {
  it("asks for a confirming tap before it answers", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presented(h, confirmCard({ irreversible: true }));
    await h.owner.tap(buttonData(message, "Yes"), message.messageId);
    await h.pump();
    expect(acks(h)).toEqual(["Confirm Yes? It cannot be undone."]);
    expect(loadQuestion(h, id).card.status).toBe("pending");
    const markup = h.sent("editMessageReplyMarkup")[0]?.payload.reply_markup as {
      inline_keyboard: { text: string; callback_data: string }[][];
    };
    const confirm = markup.inline_keyboard[0]?.[0];
    expect(confirm?.text).toBe("⚠️ Confirm Yes");
    await h.owner.tap(confirm?.callback_data as string, message.messageId);
    await h.pump();
    expect(acks(h)[1]).toBe("✅ Recorded: Yes");
    expect(loadQuestion(h, id).card.answer?.selected).toBe("yes");
    expect(listJobs(h)).toHaveLength(1);
  });
  it("Back restores the choices without answering anything", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presented(h, confirmCard({ irreversible: true }));
    await h.owner.tap(buttonData(message, "No"), message.messageId);
    await h.pump();
    const back = keyboardOf(h, 0).find((b) => b.text === "↩️ Back");
    await h.owner.tap(back?.callback_data as string, message.messageId);
    await h.pump();
    expect(acks(h)[1]).toBe("Back to the choices.");
    const restored = keyboardOf(h, 1).map((b) => b.text);
    expect(restored).toEqual(expect.arrayContaining(["Yes", "No"]));
    expect(loadQuestion(h, id).card.status).toBe("pending");
    expect(listJobs(h)).toHaveLength(0);
  });
});
