// Story: the service polls for months. Each idle round of the polling loop must leave nothing
// behind on its long-lived abort signal, or a long run piles up listeners (Node warns at 11).
// Once it holds the token, a 409 (another poller came) is retried, and only one that persists
// for the grace period stops it.

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Bot } from "grammy";
import type { Update } from "grammy/types";
import { afterEach, describe, expect, it } from "vitest";
import { PollingConflict } from "../../bridges/telegram/errors.ts";
import { startPolling } from "../../bridges/telegram/poll.ts";
import { startBotApiProxy } from "../reliability/bot-api-proxy.ts";
import { eventually } from "../support/child.ts";
import { TOKEN } from "../support/telegram.ts";

const quiet = { info() {}, warn() {}, error() {} };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A Bot API on loopback that answers every getUpdates at once with nothing. */
async function emptyBotApi() {
  let polls = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url?.endsWith("/getUpdates")) polls++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: true, result: [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { apiRoot: `http://127.0.0.1:${port}`, polls: () => polls };
}

describe("long polling", () => {
  it("leaves no abort listener behind over 40 idle rounds, and stops when asked", async () => {
    const api = await emptyBotApi();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    closers.push(async () => {
      process.off("warning", onWarning);
    });
    const bot = new Bot(TOKEN, { client: { apiRoot: api.apiRoot } });
    const polling = startPolling({ bot, logger: quiet, idleMs: 2, ensureReady: async () => true });
    await eventually(() => api.polls() >= 40 || undefined, 20_000, "40 idle polls");
    await polling.stop();
    expect(await polling.done).toBeUndefined();
    // Warnings are emitted on the next tick.
    await new Promise((r) => setImmediate(r));
    expect(warnings.filter((w) => w.startsWith("MaxListenersExceededWarning"))).toEqual([]);
  });
});

describe("a 409 after this service holds the token", () => {
  /** A Bot API on loopback with Telegram's getUpdates; no other method is called here. */
  async function botApi() {
    const proxy = await startBotApiProxy({ emulatorRoot: "http://127.0.0.1:9", holdMs: 200 });
    closers.push(() => proxy.close());
    return proxy;
  }
  const text = (t: string) =>
    ({
      message: {
        message_id: 1,
        date: 0,
        chat: { id: 1, type: "private", first_name: "A" },
        from: { id: 1, is_bot: false, first_name: "A" },
        text: t,
      },
    }) as Omit<Update, "update_id">;

  it("is retried, and polling goes on once the other poller is gone", async () => {
    const proxy = await botApi();
    const botInfo = { id: 1, is_bot: true, first_name: "B", username: "b_bot" } as Bot["botInfo"];
    const bot = new Bot(TOKEN, { botInfo, client: { apiRoot: proxy.apiRoot } });
    const seen: string[] = [];
    bot.on("message:text", (ctx) => void seen.push(ctx.message.text));
    let established = 0;
    const polling = startPolling({
      bot,
      logger: quiet,
      idleMs: 2,
      graceMs: 60_000,
      ensureReady: async () => true,
      onEstablished: () => void established++,
    });
    proxy.inject(text("before"));
    await eventually(() => seen.includes("before") || undefined, 10_000, "the first update");
    let conflicts = 3;
    proxy.setFaults((method) => (method === "getUpdates" && conflicts-- > 0 ? "409" : undefined));
    await eventually(() => proxy.faults["409"] === 3 || undefined, 10_000, "three 409s");
    proxy.inject(text("after"));
    await eventually(() => seen.includes("after") || undefined, 10_000, "the update after");
    const ended = await Promise.race([polling.done, new Promise((r) => setTimeout(r, 50, "on"))]);
    expect(ended).toBe("on");
    expect(established).toBe(1);
    await polling.stop();
  });

  it("stops polling with the conflict when it persists for the grace period", async () => {
    const proxy = await botApi();
    const bot = new Bot(TOKEN, { client: { apiRoot: proxy.apiRoot } });
    const polling = startPolling({
      bot,
      logger: quiet,
      idleMs: 2,
      graceMs: 1_500,
      ensureReady: async () => true,
      onEstablished: () => proxy.setFaults((m) => (m === "getUpdates" ? "409" : undefined)),
    });
    const ended = await polling.done;
    expect(ended).toBeInstanceOf(PollingConflict);
    // Retried during the grace period, not given up at the first.
    expect(proxy.faults["409"]).toBeGreaterThanOrEqual(3);
  });
});
