// Story: a second `qbridge serve` is started on a bot token another one already polls (a laptop
// serving another box, a second unit by mistake). Telegram ends the older of two getUpdates calls
// with 409 Conflict. The service that was there first keeps the bot; the newcomer says so in one
// sentence, shows nothing, and exits with 78, which the systemd unit's RestartPreventExitStatus
// keeps from restarting into the same conflict. Whichever of two services starts second stops.

import type { Update } from "grammy/types";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { type BotApiProxy, startBotApiProxy } from "../reliability/bot-api-proxy.ts";
import { cleanupBoxes, makeBox, selectCard, T0 } from "../support/box.ts";
import { type Emulator, eventually, OWNER, startEmulator, TOKEN } from "../support/telegram.ts";
import { type BotApiStub, CONFLICT, startBotApiStub } from "./bot-api-stub.ts";
import { type Child, freshDir, qbridge, removeFreshDirs } from "./ship-support.ts";

const IN_USE =
  "qbridge: TELEGRAM_BOT_TOKEN is in use elsewhere (Telegram answered getUpdates with 409 Conflict): another qbridge serve or a webhook is using this token; stop it, or use webhook mode (TELEGRAM_WEBHOOK_URL) in a single service";
const HOLDS_TOKEN = '"msg":"telegram polling: this service holds the bot token"';

let stub: BotApiStub | undefined;
afterEach(async () => {
  await stub?.stop();
  stub = undefined;
  removeFreshDirs();
});

/** Waits for the child to exit, at most 30 s (then kills it); resolves with its code. */
async function exitOf(child: Child): Promise<number | null | "still running"> {
  const code = await Promise.race([
    child.exited,
    new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 30_000)),
  ]);
  if (code === "still running") await child.kill("SIGKILL");
  return code;
}

describe("one poller per bot token", () => {
  it("a 409 from getUpdates ends serve with one sentence naming the token and the fix, exit status 78, asked once", async () => {
    stub = await startBotApiStub({ getUpdates: CONFLICT });
    const serve = qbridge(["serve"], {
      cwd: freshDir(),
      env: {
        QBRIDGE_WEB_PORT: "0",
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_OWNER_ID: "1001",
        TELEGRAM_API_ROOT: stub.apiRoot,
      },
    });
    expect(await exitOf(serve)).toBe(78);
    const lastLine = serve.stderr().trim().split("\n").pop();
    expect(lastLine).toBe(IN_USE);
    expect(serve.stderr()).not.toMatch(/^\s+at /m);
    expect(stub.calls.filter((m) => m === "getUpdates")).toHaveLength(1);
    // The JSON log says it too, and the service stopped in order (ledger closed).
    expect(serve.stdout()).toContain("409 Conflict");
    expect(serve.stdout()).toContain('"msg":"stopped"');
    expect(serve.stdout() + serve.stderr()).not.toContain(TOKEN);
  });
});

describe("a webhook set for the bot token", () => {
  const WEBHOOK_HELD =
    "qbridge: TELEGRAM_BOT_TOKEN is in use by a webhook: Telegram posts this bot's updates to https://other.example.org, and polling here would take them from the service there; stop that service and delete its webhook (Telegram's deleteWebhook), or run one service in webhook mode (TELEGRAM_WEBHOOK_URL)";
  const webhookInfo = (url: string) => ({
    ok: true as const,
    result: { url, has_custom_certificate: false, pending_update_count: 0 },
  });
  const polls = (apiRoot: string) => ({
    QBRIDGE_WEB_PORT: "0",
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_OWNER_ID: "1001",
    TELEGRAM_API_ROOT: apiRoot,
  });

  it("another service's webhook is left in place: serve stops before polling, naming only the webhook's origin, exit 78", async () => {
    stub = await startBotApiStub({
      getWebhookInfo: webhookInfo("https://other.example.org/hooks/4f9c2e-private-path"),
    });
    const serve = qbridge(["serve"], { cwd: freshDir(), env: polls(stub.apiRoot) });
    expect(await exitOf(serve)).toBe(78);
    expect(serve.stderr().trim().split("\n").pop()).toBe(WEBHOOK_HELD);
    expect(stub.calls).toContain("getWebhookInfo");
    expect(stub.calls).not.toContain("deleteWebhook");
    expect(stub.calls).not.toContain("getUpdates");
    expect(serve.stdout() + serve.stderr()).not.toContain("4f9c2e-private-path");
    expect(serve.stdout()).toContain('"msg":"stopped"');
  });

  it("the webhook this box set in webhook mode is deleted when the box goes back to long polling", async () => {
    const url = "https://q.example.org/telegram";
    const cwd = freshDir();
    stub = await startBotApiStub({ setWebhook: { ok: true, result: true } });
    const hooked = qbridge(["serve"], {
      cwd,
      env: {
        ...polls(stub.apiRoot),
        TELEGRAM_WEBHOOK_URL: url,
        TELEGRAM_WEBHOOK_SECRET: "s3cret-for-the-test",
        TELEGRAM_WEBHOOK_PORT: "0",
      },
    });
    await hooked.waitFor(`telegram webhook at ${url}`, 30_000, "stderr");
    expect(await hooked.kill("SIGTERM")).toBe(0);
    await stub.stop();

    // Telegram still has that webhook; the same box now long-polls.
    stub = await startBotApiStub({ getWebhookInfo: webhookInfo(url) });
    const polling = qbridge(["serve"], { cwd, env: polls(stub.apiRoot) });
    await polling.waitFor(HOLDS_TOKEN);
    expect(polling.stdout()).toContain("deleted the webhook this box set in webhook mode");
    const calls = stub.calls;
    expect(calls.indexOf("deleteWebhook")).toBeGreaterThan(calls.indexOf("getWebhookInfo"));
    expect(calls.indexOf("getUpdates")).toBeGreaterThan(calls.indexOf("deleteWebhook"));
    expect(await polling.kill("SIGTERM")).toBe(0);
  });

  it("a Bot API server that cannot tell its webhook state is polled without deleting anything", async () => {
    stub = await startBotApiStub({
      getWebhookInfo: { ok: false, error_code: 404, description: "Not Found: method not found" },
    });
    const serve = qbridge(["serve"], { cwd: freshDir(), env: polls(stub.apiRoot) });
    await serve.waitFor(HOLDS_TOKEN);
    expect(serve.stdout()).toContain("the webhook state cannot be read (getWebhookInfo)");
    expect(stub.calls).not.toContain("deleteWebhook");
    expect(await serve.kill("SIGTERM")).toBe(0);
  });
});

describe("two services on one bot token, with Telegram's rule that a newer getUpdates ends the older", () => {
  let emulator: Emulator;
  let proxy: BotApiProxy;
  beforeAll(async () => {
    emulator = await startEmulator();
    proxy = await startBotApiProxy({
      emulatorRoot: emulator.apiRoot,
      holdMs: 2_000,
      conflicts: true,
    });
  });
  afterAll(async () => {
    await proxy.close();
    await emulator.stop();
    cleanupBoxes();
  });

  const sentTexts = () =>
    proxy.calls.filter((c) => c.method === "sendMessage").map((c) => String(c.payload.text));

  /** The owner sends /waiting; resolves with the bot's reply text. */
  async function waitingReply(): Promise<string> {
    const before = proxy.calls.length;
    const chat = { id: OWNER, type: "private" as const, first_name: "Owner" };
    proxy.inject({
      message: {
        message_id: 900 + before,
        date: 0,
        chat,
        from: { id: OWNER, is_bot: false, first_name: "Owner" },
        text: "/waiting",
        entities: [{ type: "bot_command", offset: 0, length: 8 }],
      },
    } as Omit<Update, "update_id">);
    const reply = await eventually(
      () =>
        proxy.calls
          .slice(before)
          .find((c) => c.method === "sendMessage" && /waiting on you/.test(String(c.payload.text))),
      20_000,
      "the reply to /waiting",
    );
    return String(reply.payload.text);
  }

  it("the service started second exits 78 without showing anything; the first keeps answering, in either order", async () => {
    const boxA = await makeBox();
    const boxB = await makeBox();
    await askQuestion(boxA, selectCard({ prompt: "Box A: where do receipts go?" }));
    await askQuestion(boxB, selectCard({ prompt: "Box B: where do invoices go?" }));
    const serve = (dir: string) =>
      qbridge(["serve"], {
        cwd: dir,
        env: {
          QBRIDGE_BOX: dir,
          QBRIDGE_TIME: T0,
          QBRIDGE_WEB_PORT: "0",
          TELEGRAM_BOT_TOKEN: TOKEN,
          TELEGRAM_OWNER_ID: String(OWNER),
          TELEGRAM_API_ROOT: proxy.apiRoot,
        },
      });

    // A first: it holds the token and shows its question.
    const a = serve(boxA.dir);
    await a.waitFor(HOLDS_TOKEN);
    await eventually(() => sentTexts().some((t) => t.includes("Box A")), 20_000, "A's question");

    // B second: its first poll meets A's, and B is the one that stops, having shown nothing.
    const b = serve(boxB.dir);
    expect(await exitOf(b)).toBe(78);
    expect(b.stderr().trim().split("\n").pop()).toBe(IN_USE);
    expect(b.stdout()).not.toContain(HOLDS_TOKEN);
    expect(sentTexts().some((t) => t.includes("Box B"))).toBe(false);
    expect(proxy.conflicts()).toBeGreaterThanOrEqual(2);
    // A kept the bot: it is running, said it saw the newcomer, and answers the owner.
    expect(a.ended()).toBeUndefined();
    expect(a.stdout()).toContain("this service was here first and keeps polling");
    expect(await waitingReply()).toContain("Box A");

    // The other order: B alone first, then A comes second and is the one that stops.
    expect(await a.kill("SIGTERM")).toBe(0);
    const b2 = serve(boxB.dir);
    await b2.waitFor(HOLDS_TOKEN);
    await eventually(() => sentTexts().some((t) => t.includes("Box B")), 20_000, "B's question");
    const a2 = serve(boxA.dir);
    expect(await exitOf(a2)).toBe(78);
    expect(a2.stderr().trim().split("\n").pop()).toBe(IN_USE);
    expect(b2.ended()).toBeUndefined();
    expect(await waitingReply()).toContain("Box B");
    expect(await b2.kill("SIGTERM")).toBe(0);
    for (const child of [a, b, a2, b2]) expect(child.stderr()).not.toMatch(/^\s+at /m);
  });
});
