// Story: the boxholder taps an answer of an irreversible question, sees [⚠️ Confirm X] [↩️ Back]
// on the question's message, and types instead of tapping. A typed yes is the confirming act:
// X is recorded once, and the Confirm button left on screen can only replay that. A typed no
// declines: nothing is recorded and the choices come back. A yes/no question's own answer typed
// there is that answer, asked about no second time when it is the one tapped.

import { describe, expect, it } from "vitest";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { confirmCard, gitLog, selectCard } from "../support/box.ts";
import {
  type BotMessage,
  buttonData,
  type Harness,
  openHarness,
  presentQuestion,
  useEmulator,
} from "../support/telegram.ts";

const emulator = useEmulator();

const replies = (h: Harness) => h.sent("sendMessage").map((c) => String(c.payload.text));
const acks = (h: Harness) => h.sent("answerCallbackQuery").map((c) => c.payload.text);
const answerCommits = async (h: Harness) =>
  (await gitLog(h.dir)).filter((s) => s.startsWith("answer:")).length;

/** The buttons of the n-th keyboard the bot put on a message by editMessageReplyMarkup. */
function keyboardOf(h: Harness, n: number): { text: string; callback_data: string }[] {
  const markup = h.sent("editMessageReplyMarkup")[n]?.payload.reply_markup as
    | { inline_keyboard: { text: string; callback_data: string }[][] }
    | undefined;
  return markup?.inline_keyboard.flat() ?? [];
}

/** Taps `label` on the shown question and returns the Confirm button that replaced the choices. */
async function tapToConfirm(
  h: Harness,
  message: BotMessage,
  button: string,
  label = button,
): Promise<string> {
  await h.owner.tap(buttonData(message, button), message.messageId);
  await h.pump();
  const confirm = keyboardOf(h, 0).find((b) => b.text.startsWith("⚠️ Confirm"));
  expect(confirm?.text).toBe(`⚠️ Confirm ${label}`);
  return confirm?.callback_data as string;
}

describe("typing while an irreversible answer waits for its confirming tap", () => {
  it("a typed yes records the tapped option once; the Confirm left on screen only replays it", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, selectCard({ irreversible: true }));
    const confirm = await tapToConfirm(h, message, "a) Finance", "Finance");

    await h.owner.say("yes");
    await h.pump();
    expect(replies(h).at(-1)).toBe("✅ Recorded: Finance");
    expect(loadQuestion(h, id).card.answer).toEqual({ text: "Finance", selected: "finance" });
    expect(loadQuestion(h, id).card["answered-via"]).toBe("telegram");

    await h.owner.tap(confirm, message.messageId);
    await h.pump();
    expect(acks(h).at(-1)).toBe("✅ Recorded: Finance");
    expect(listJobs(h)).toHaveLength(1);
    expect(await answerCommits(h)).toBe(1);
  });

  it("a typed no records nothing, brings the choices back, and the old Confirm records nothing", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, selectCard({ irreversible: true }));
    const confirm = await tapToConfirm(h, message, "b) Taxes", "Taxes");

    await h.owner.say("No");
    await h.pump();
    expect(replies(h).at(-1)).toBe("Not recorded: Taxes. Here are the choices again.");
    const restored = keyboardOf(h, 1).map((b) => b.text);
    expect(restored).toEqual(expect.arrayContaining(["a) Finance", "b) Taxes"]));

    await h.owner.tap(confirm, message.messageId);
    await h.pump();
    expect(acks(h).at(-1)).toBe("Not recorded: Taxes. Here are the choices again.");
    expect(loadQuestion(h, id).card.status).toBe("pending");
    expect(listJobs(h)).toHaveLength(0);
  });

  it("on a yes/no question, typing the answer that was tapped records it without asking again", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, confirmCard({ irreversible: true }));
    const confirm = await tapToConfirm(h, message, "Yes");

    await h.owner.say("yes");
    await h.pump();
    expect(replies(h).at(-1)).toBe("✅ Recorded: Yes");
    expect(loadQuestion(h, id).card.answer?.selected).toBe("yes");

    await h.owner.tap(confirm, message.messageId);
    await h.pump();
    expect(acks(h).at(-1)).toBe("✅ Recorded: Yes");
    expect(listJobs(h)).toHaveLength(1);
  });
});
