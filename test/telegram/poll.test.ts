// Story: the service polls for months. Each idle round of the polling loop must leave nothing
// behind on its long-lived abort signal, or a long run piles up listeners (Node warns at 11).

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Bot } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { startPolling } from "../../bridges/telegram/poll.ts";
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
