// Story: the boxholder blocks the bot (or never pressed Start). Telegram refuses every message
// with 403; the slot keeps trying to present the question, and each try must leave nothing
// behind: a week of tries would otherwise fill the ledger with the tokens of messages that
// never arrived. It tries at growing intervals on the box clock, says so in the log once, and
// tries at once when the boxholder writes to the bot again.
//
// Simulated: the emulator has no blocked chats, so a transformer at the bot's API (where grammY
// talks to Telegram) answers sendMessage and the edits with Telegram's own error object for a blocked chat,
// {ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user"} (or for
// a chat that is gone, 400 "chat not found"), while `blocked` is set. Everything else is real: the emulator, the box, the ledger, the slot.

import type { Transformer } from "grammy";
import { describe, expect, it } from "vitest";
import { createClock } from "../../src/box/clock.ts";
import { ageQuestions } from "../../src/questions/aging.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { selectCard, T0 } from "../support/box.ts";
import { botBehind, buttonData, OWNER, toBotMessage, useEmulator } from "../support/telegram.ts";

const emulator = useEmulator();

const BLOCKED = { error_code: 403, description: "Forbidden: bot was blocked by the user" };

/** A bot on the emulator whose messages Telegram refuses (`refusal`) while `chat.blocked`. */
async function blockedChat(refusal = BLOCKED) {
  const chat = { blocked: true };
  const block: Transformer = async (prev, method, payload, signal) =>
    chat.blocked && (method === "sendMessage" || method.startsWith("editMessage"))
      ? ({ ok: false, ...refusal } as never)
      : prev(method, payload, signal);
  const { box, slot, bridge, calls, logs, warnings } = await botBehind(emulator().apiRoot, block);
  const sends = () => calls.filter((c) => c.method === "sendMessage").length;
  /** Moves the box clock to `seconds` after T0. */
  const at = (seconds: number) => {
    box.box.clock = createClock(new Date(Date.parse(T0) + seconds * 1000).toISOString());
  };
  return { box, slot, chat, calls, bridge, logs, sends, warnings, at };
}

describe("a chat that blocked the bot", () => {
  it("leaves no token behind for the messages Telegram refused, and shows the question once unblocked", async () => {
    const { box, slot, chat, calls } = await blockedChat();
    const id = (await askQuestion(box, selectCard())).id;
    // The slot holds off filling for a while after a refused send; /next tries at once.
    for (let i = 0; i < 3; i++) await slot.next();
    expect(calls.filter((c) => c.method === "sendMessage")).toHaveLength(3);
    expect(slot.current()).toBeUndefined();
    const tokens = () =>
      (box.ledger.db.prepare("SELECT count(*) AS n FROM button_tokens").get() as { n: number }).n;
    expect(tokens()).toBe(0);

    chat.blocked = false;
    await slot.next();
    const sent = calls.filter((c) => c.method === "sendMessage" && c.result).pop();
    expect(sent).toBeDefined();
    const shown = toBotMessage(sent as NonNullable<typeof sent>);
    expect(slot.current()?.questionId).toBe(id);
    expect(tokens()).toBe(shown.buttons.length);
    expect(buttonData(shown, "a)")).toBeTruthy();
  });

  it("is tried again after 30 s, then at doubling intervals up to 15 min, with one warning in all", async () => {
    const { box, slot, sends, warnings, at } = await blockedChat();
    await askQuestion(box, selectCard());
    await slot.reconcile();
    expect(sends()).toBe(1);
    expect(warnings()).toHaveLength(1);
    // Every watcher tick before the hold-off ends sends nothing.
    at(29);
    for (let i = 0; i < 3; i++) await slot.reconcile();
    expect(sends()).toBe(1);

    // Tries at 30 s, then 60 s, 120 s, ... after the one before, never more than 15 min apart.
    let t = 0;
    for (const wait of [30, 60, 120, 240, 480, 900, 900, 900]) {
      at(t + wait - 1);
      await slot.reconcile();
      const before = sends();
      t += wait;
      at(t);
      await slot.reconcile();
      expect(sends() - before, `a try ${t} s after the first`).toBe(1);
    }
    expect(sends()).toBe(9);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]?.msg).toContain("refuses");
    expect(slot.current()).toBeUndefined();
  });

  it("a chat that is gone (400 chat not found) is held off the same way", async () => {
    const gone = { error_code: 400, description: "Bad Request: chat not found" };
    const { box, slot, sends, warnings, at } = await blockedChat(gone);
    await askQuestion(box, selectCard());
    await slot.reconcile();
    at(29);
    await slot.reconcile();
    expect(sends()).toBe(1);
    at(30);
    await slot.reconcile();
    expect(sends()).toBe(2);
    expect(warnings()).toHaveLength(1);
  });

  it("shows the question at once when the boxholder writes to the bot again, and says so once", async () => {
    const { box, slot, chat, bridge, logs, sends, at } = await blockedChat();
    const id = (await askQuestion(box, selectCard())).id;
    await slot.reconcile();
    at(10);
    await slot.reconcile();
    expect(sends()).toBe(1);

    chat.blocked = false;
    // Unblocking is not an update the bot gets; what the boxholder writes next is.
    await bridge.handleUpdate({
      update_id: 1,
      message: {
        message_id: 5,
        date: Math.floor(Date.parse(T0) / 1000),
        chat: { id: OWNER, type: "private", first_name: "Owner" },
        from: { id: OWNER, is_bot: false, first_name: "Owner" },
        text: "/help",
        entities: [{ type: "bot_command", offset: 0, length: 5 }],
      },
    });
    expect(slot.current()?.questionId).toBe(id);
    expect(slot.current()?.messageId).toBeDefined();
    expect(logs.filter((l) => l.msg.includes("takes messages again"))).toHaveLength(1);
  });

  it("updates the message of a question answered elsewhere once the chat takes messages, not at every tick", async () => {
    const { box, slot, chat, calls, warnings, at } = await blockedChat();
    const id = (await askQuestion(box, selectCard())).id;
    chat.blocked = false;
    await slot.reconcile();
    chat.blocked = true;
    const edits = () => calls.filter((c) => c.method === "editMessageText").length;
    await answerQuestion(box, id, { text: "Taxes" }, { via: "cli" });
    await slot.reconcile();
    expect(edits()).toBe(1);
    at(20);
    for (let i = 0; i < 3; i++) await slot.reconcile();
    expect(edits()).toBe(1);
    expect(warnings()).toHaveLength(1);

    chat.blocked = false;
    at(30);
    await slot.reconcile();
    expect(edits()).toBe(2);
    expect(String(calls.at(-1)?.payload.text)).toContain("Answered via cli: Taxes");
  });

  it("holds a nudge while the hold-off runs: it stays due and is not sent at every sweep", async () => {
    const { box, slot, chat, calls, sends, at } = await blockedChat();
    const id = (await askQuestion(box, selectCard())).id;
    chat.blocked = false;
    await slot.reconcile();
    expect(slot.current()?.questionId).toBe(id);
    chat.blocked = true;
    const week = 7 * 86_400;
    at(week);
    const first = await ageQuestions(box, { nudge: slot.nudger() });
    expect(first.nudgeDue).toEqual([id]);
    const tried = sends();
    at(week + 20);
    const second = await ageQuestions(box, { nudge: slot.nudger() });
    expect(second.nudgeDue).toEqual([id]);
    expect(sends()).toBe(tried);

    chat.blocked = false;
    at(week + 30);
    const third = await ageQuestions(box, { nudge: slot.nudger() });
    expect(third.nudged).toEqual([id]);
    expect(calls.filter((c) => c.method === "sendMessage" && c.result)).toHaveLength(2);
  });
});
