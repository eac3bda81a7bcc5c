// Story: the boxholder blocks the bot (or never pressed Start). Telegram refuses every message
// with 403; the slot keeps trying to present the question, and each try must leave nothing
// behind: a week of tries would otherwise fill the ledger with the tokens of messages that
// never arrived. Once the chat takes messages again, the question is shown with live buttons.

import type { Transformer } from "grammy";
import { describe, expect, it } from "vitest";
import { createBot } from "../../bridges/telegram/bot.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { createSlot } from "../../src/slot/slot.ts";
import { makeBox, selectCard } from "../support/box.ts";
import {
  buttonData,
  OWNER,
  recorder,
  TOKEN,
  toBotMessage,
  useEmulator,
} from "../support/telegram.ts";

const emulator = useEmulator();

describe("a chat that blocked the bot", () => {
  it("leaves no token behind for the messages Telegram refused, and shows the question once unblocked", async () => {
    const box = await makeBox();
    const slot = createSlot({ core: box });
    let blocked = true;
    const block: Transformer = async (prev, method, payload, signal) =>
      blocked && method === "sendMessage"
        ? ({
            ok: false,
            error_code: 403,
            description: "Forbidden: bot was blocked by the user",
          } as never)
        : prev(method, payload, signal);
    const { calls, transformer } = recorder();
    const bridge = createBot({
      token: TOKEN,
      apiRoot: emulator().apiRoot,
      slot,
      logger: { info() {}, warn() {}, error() {} },
      ownerId: String(OWNER),
      transformers: [block, transformer],
    });
    expect(await bridge.init()).toBe(true);
    const id = (await askQuestion(box, selectCard())).id;
    // The slot holds off filling for a while after a failed send; /next tries at once.
    for (let i = 0; i < 3; i++) await slot.next();
    expect(calls.filter((c) => c.method === "sendMessage")).toHaveLength(3);
    expect(slot.current()).toBeUndefined();
    const tokens = () =>
      (box.ledger.db.prepare("SELECT count(*) AS n FROM button_tokens").get() as { n: number }).n;
    expect(tokens()).toBe(0);

    blocked = false;
    await slot.next();
    const sent = calls.filter((c) => c.method === "sendMessage" && c.result).pop();
    expect(sent).toBeDefined();
    const shown = toBotMessage(sent as NonNullable<typeof sent>);
    expect(slot.current()?.questionId).toBe(id);
    expect(tokens()).toBe(shown.buttons.length);
    expect(buttonData(shown, "a)")).toBeTruthy();
  });
});
