// The emulator front the benches run the bot behind (test/support/long-poll.ts): an empty
// getUpdates with a timeout is held as Telegram holds it, until a person's update comes or the
// timeout ends; anything else is the emulator's own answer.

import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { type Emulator, eventually, OWNER, startEmulator, TOKEN } from "../support/telegram.ts";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.stop();
  emulator = undefined;
});

async function call(
  apiRoot: string,
  method: string,
  body: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<{ ok: boolean; result: unknown }> {
  const response = await fetch(`${apiRoot}/bot${TOKEN}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  return (await response.json()) as { ok: boolean; result: unknown };
}

const owner = (running: Emulator) =>
  running.server.getClient(TOKEN, { userId: OWNER, chatId: OWNER });

describe("an emulator that holds polls", () => {
  it("holds an empty poll until a person's message comes, and hands that message out", async () => {
    emulator = await startEmulator({ holdPolls: true });
    let answered = false;
    const poll = call(emulator.apiRoot, "getUpdates", { timeout: 30 }).finally(() => {
      answered = true;
    });
    await sleep(300);
    expect(answered).toBe(false);
    const client = owner(emulator);
    await client.sendMessage(client.makeMessage("hello"));
    const { ok, result } = await poll;
    expect(ok).toBe(true);
    expect(result).toEqual([
      expect.objectContaining({ message: expect.objectContaining({ text: "hello" }) }),
    ]);
  });

  it("hands out at once an update that was there before the poll, and ends an empty one at its timeout", async () => {
    emulator = await startEmulator({ holdPolls: true });
    const client = owner(emulator);
    await client.sendCallback(client.makeCallbackQuery("tap", { message: { message_id: 1 } }));
    const first = await call(emulator.apiRoot, "getUpdates", { timeout: 30 });
    expect(first.result).toEqual([expect.objectContaining({ callback_query: expect.anything() })]);
    expect(await call(emulator.apiRoot, "getUpdates", { timeout: 1 })).toEqual({
      ok: true,
      result: [],
    });
  });

  it("answers a poll without a timeout, and every other method, as the emulator does", async () => {
    emulator = await startEmulator({ holdPolls: true });
    expect(await call(emulator.apiRoot, "getUpdates", {})).toEqual({ ok: true, result: [] });
    const sent = await call(emulator.apiRoot, "sendMessage", { chat_id: OWNER, text: "hi" });
    expect(sent.ok).toBe(true);
    expect(emulator.server.storage.botMessages.map((m) => m.message.text)).toEqual(["hi"]);
  });

  it("never takes an update for a bot that stopped polling", async () => {
    emulator = await startEmulator({ holdPolls: true });
    const stop = new AbortController();
    const left = call(emulator.apiRoot, "getUpdates", { timeout: 30 }, stop.signal);
    await sleep(300);
    stop.abort();
    await expect(left).rejects.toThrow();
    // The front has let go of the poll once it no longer waits for a person's message.
    const server = emulator.server;
    await eventually(
      () => server.listenerCount("AddedUserMessage") === 0,
      10_000,
      "the poll let go",
    );
    const client = owner(emulator);
    await client.sendMessage(client.makeMessage("still here"));
    const next = await call(emulator.apiRoot, "getUpdates", { timeout: 30 });
    expect(next.result).toEqual([
      expect.objectContaining({ message: expect.objectContaining({ text: "still here" }) }),
    ]);
  });
});
