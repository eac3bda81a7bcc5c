// Story: a multi-select on the phone. The boxholder taps options to pick them (the buttons show
// ☑ and ☐, nothing is recorded yet), then Send records the picks as one answer: one commit, one
// follow-up job, and the message shows what was recorded. A toggle or Send made for a card that
// was edited since, and a stranger's toggle, change nothing; an irreversible question asks first.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { InlineKeyboardButton } from "grammy/types";
import { describe, expect, it } from "vitest";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { CHANGED_REPLY } from "../../src/slot/judge/actions.ts";
import { gitLog, multiselectCard } from "../support/box.ts";
import {
  type BotMessage,
  buttonData,
  type Harness,
  openHarness,
  presentQuestion,
  useEmulator,
} from "../support/telegram.ts";

const emulator = useEmulator();

/** The message as it shows now: its buttons after the last edit of them, else as sent. */
function now(h: Harness, message: BotMessage): BotMessage {
  const edit = h
    .sent("editMessageReplyMarkup")
    .filter((c) => c.payload.message_id === message.messageId)
    .at(-1);
  if (!edit) return message;
  const markup = edit.payload.reply_markup as { inline_keyboard: InlineKeyboardButton[][] };
  return { ...message, buttons: markup.inline_keyboard.flat() };
}

/** Taps the button of the message (as it shows now) whose text starts with `prefix`. */
async function tap(h: Harness, message: BotMessage, prefix: string): Promise<string> {
  await h.owner.tap(buttonData(now(h, message), prefix), message.messageId);
  await h.pump();
  return String(h.sent("answerCallbackQuery").at(-1)?.payload.text);
}

const answerCommits = async (h: Harness) =>
  (await gitLog(h.dir)).filter((s) => s.startsWith("answer:")).length;

describe("a multi-select on Telegram", () => {
  it("toggles show their picks and record nothing; Send records them in one commit with one job", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, multiselectCard());
    expect(message.buttons.map((b) => b.text)).toEqual([
      "☐ a) Unit tests",
      "☐ b) Lint",
      "☐ c) Type check",
      "📨 Send",
      "🅿️ Park",
      "⏰ Later",
      "🚫 Dismiss",
    ]);
    expect(message.text).toContain("Tap the options you pick, then 📨 Send");

    expect(await tap(h, message, "☐ a)")).toContain("Picked: Unit tests");
    expect(await tap(h, message, "☐ b)")).toContain("Picked: Lint (2 picked)");
    expect(
      now(h, message)
        .buttons.slice(0, 4)
        .map((b) => b.text),
    ).toEqual(["☑ a) Unit tests", "☑ b) Lint", "☐ c) Type check", "📨 Send (2 picked)"]);
    expect(loadQuestion(h, id).card.status).toBe("pending");
    expect(listJobs(h)).toHaveLength(0);
    expect(await answerCommits(h)).toBe(0);

    expect(await tap(h, message, "📨 Send")).toBe("✅ Recorded: Unit tests, Lint");
    const { card } = loadQuestion(h, id);
    expect(card.answer).toEqual({ text: "Unit tests, Lint", selected: "unit,lint" });
    expect(card["answered-via"]).toBe("telegram");
    expect(listJobs(h).map((j) => j.job?.answer)).toEqual([
      { text: "Unit tests, Lint", selected: "unit,lint" },
    ]);
    expect(await answerCommits(h)).toBe(1);
    const edited = h.sent("editMessageText").at(-1)?.payload;
    expect(edited?.message_id).toBe(message.messageId);
    expect(edited?.text).toContain("Answered via telegram: Unit tests, Lint");
    expect(edited?.reply_markup).toEqual({ inline_keyboard: [] });
  });

  it("a second tap unpicks an option, and Send with nothing picked records nothing and says so", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, multiselectCard());
    await tap(h, message, "☐ c)");
    expect(await tap(h, message, "☑ c)")).toContain("Unpicked: Type check (0 picked)");
    expect(await tap(h, message, "📨 Send")).toBe(
      "Nothing is picked yet: tap the options you pick, then Send.",
    );
    expect(loadQuestion(h, id).card.status).toBe("pending");
    expect(listJobs(h)).toHaveLength(0);
  });

  it("a double tap on one option (two callbacks, one button) picks it once; Send records it", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, multiselectCard());
    // The thumb lands twice before the redrawn buttons arrive: both callbacks carry one token.
    await h.owner.tap(buttonData(message, "☐ a)"), message.messageId);
    await h.owner.tap(buttonData(message, "☐ a)"), message.messageId);
    await h.pump();
    const picked = "Picked: Unit tests (1 picked). Send records the picks.";
    expect(h.sent("answerCallbackQuery").map((c) => c.payload.text)).toEqual([picked, picked]);
    expect(await tap(h, message, "📨 Send")).toBe("✅ Recorded: Unit tests");
    expect(loadQuestion(h, id).card.answer).toMatchObject({ selected: "unit" });
  });

  it("a toggle or Send from before the card was edited is refused and records nothing", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, multiselectCard());
    await tap(h, message, "☐ a)");
    const shown = now(h, message);
    const path = join(h.dir, loadQuestion(h, id).rel);
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace("label: Lint", "label: Lint and format"),
    );

    await h.owner.tap(buttonData(shown, "📨 Send"), message.messageId);
    await h.pump();
    expect(h.sent("answerCallbackQuery").at(-1)?.payload.text).toBe(CHANGED_REPLY);
    await h.owner.tap(buttonData(shown, "☐ b)"), message.messageId);
    await h.pump();
    expect(h.sent("answerCallbackQuery").at(-1)?.payload.text).toContain("no longer open here");

    expect(loadQuestion(h, id).card.status).toBe("pending");
    expect(listJobs(h)).toHaveLength(0);
    expect(await answerCommits(h)).toBe(0);
    // Shown again as it is now, with nothing picked: the picks were made for the old card.
    const again = await h.lastMessage();
    expect(again.messageId).not.toBe(message.messageId);
    expect(again.buttons.map((b) => b.text)).toContain("☐ b) Lint and format");
    expect(again.buttons.map((b) => b.text)).toContain("☐ a) Unit tests");
  });

  it("a stranger's toggle is refused and picks nothing", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, multiselectCard());
    await h.stranger.tap(buttonData(message, "☐ a)"), message.messageId);
    await h.pump();
    expect(h.sent("answerCallbackQuery").at(-1)?.payload.text).toContain("answers only its owner");
    expect(h.sent("editMessageReplyMarkup")).toHaveLength(0);
    expect(h.ledger.auditFor().some((a) => a.outcome === "refused:stranger")).toBe(true);
    // The boxholder's Send finds nothing picked: the stranger's tap changed no pick.
    expect(await tap(h, message, "📨 Send")).toContain("Nothing is picked yet");
    expect(loadQuestion(h, id).card.status).toBe("pending");
  });

  it("an irreversible multi-select asks to confirm on Send; Confirm records the picks", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, multiselectCard({ irreversible: true }));
    await tap(h, message, "☐ a)");
    await tap(h, message, "☐ c)");
    expect(await tap(h, message, "📨 Send")).toBe(
      "Confirm Unit tests, Type check? It cannot be undone.",
    );
    expect(now(h, message).buttons.map((b) => b.text)).toEqual([
      "⚠️ Confirm Unit tests, Type check",
      "↩️ Back",
    ]);
    expect(loadQuestion(h, id).card.status).toBe("pending");

    expect(await tap(h, message, "↩️ Back")).toBe("Back to the choices.");
    expect(
      now(h, message)
        .buttons.slice(0, 4)
        .map((b) => b.text),
    ).toEqual(["☑ a) Unit tests", "☐ b) Lint", "☑ c) Type check", "📨 Send (2 picked)"]);
    await tap(h, message, "📨 Send");
    expect(await tap(h, message, "⚠️ Confirm")).toBe("✅ Recorded: Unit tests, Type check");
    expect(loadQuestion(h, id).card.answer).toEqual({
      text: "Unit tests, Type check",
      selected: "unit,types",
    });
    expect(listJobs(h)).toHaveLength(1);
  });

  it("typed letters separated by commas answer it; an item that names no option refuses them all", async () => {
    const h = await openHarness(emulator());
    const { id } = await presentQuestion(h, multiselectCard());
    await h.owner.say("a, zz");
    await h.pump();
    expect(h.sent("sendMessage").at(-1)?.payload.text).toContain('"zz" names none of them');
    expect(loadQuestion(h, id).card.status).toBe("pending");

    await h.owner.say("c, a - only on main");
    await h.pump();
    expect(loadQuestion(h, id).card.answer).toEqual({
      text: "Unit tests, Type check",
      selected: "unit,types",
      note: "only on main",
    });
    expect(listJobs(h)).toHaveLength(1);
  });
});
