// Story: the bot token is wrong or revoked (well formed, but Telegram answers 401), or the Bot
// API cannot be reached. At start a refused token is one sentence and exit 78; a token revoked
// while the service runs is logged once and shown in /healthz while the web page stays up; an
// API that cannot be reached is a warning at start, retried with backoff, and shown in /healthz
// until it answers. None of it prints a stack trace.

import type { AddressInfo, Socket } from "node:net";
import { createServer } from "node:net";
import { Api } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { failureOf } from "../../bridges/telegram/standing.ts";
import { type Answer, type BotApiStub, startBotApiStub } from "../ship/bot-api-stub.ts";
import { freshDir, qbridge, removeFreshDirs } from "../ship/ship-support.ts";
import { webPortOf } from "../support/child.ts";
import { unusedPort } from "../support/ports.ts";
import { eventually, TOKEN } from "../support/telegram.ts";

const REFUSED =
  "Telegram refused TELEGRAM_BOT_TOKEN (401 Unauthorized): copy it again from @BotFather";
const UNAUTHORIZED: Answer = { ok: false, error_code: 401, description: "Unauthorized" };

const stubs: BotApiStub[] = [];
afterEach(async () => {
  for (const stub of stubs.splice(0)) await stub.stop();
  removeFreshDirs();
});

async function stub(answers: Record<string, Answer>, port?: number): Promise<BotApiStub> {
  const s = await startBotApiStub(answers, port);
  stubs.push(s);
  return s;
}

// The web page on any free port: webPortOf reads which.
const env = (apiRoot: string) => ({
  QBRIDGE_WEB_PORT: "0",
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_OWNER_ID: "1001",
  TELEGRAM_API_ROOT: apiRoot,
});

const HOLDS_TOKEN = '"msg":"telegram polling: this service holds the bot token"';

interface Health {
  ok: boolean;
  parts?: { telegram?: { ok: boolean; reason?: string } };
}

/** /healthz until `check` holds for what it says; resolves with the status and the body. */
async function healthWhen(port: number, check: (h: Health) => boolean, what: string) {
  return eventually(
    async () => {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
      if (!res) return undefined;
      const body = (await res.json()) as Health;
      return check(body) ? { status: res.status, body } : undefined;
    },
    20_000,
    what,
  );
}

const count = (text: string, part: string) => text.split(part).length - 1;

const noStack = (text: string) => expect(text).not.toMatch(/^\s+at |"stack"/m);

describe("a bot token Telegram refuses (401)", () => {
  it("at start: one sentence on stderr, exit 78, no polling, no stack trace", async () => {
    const api = await stub({ getMe: UNAUTHORIZED });
    const serve = qbridge(["serve"], { cwd: freshDir(), env: env(api.apiRoot) });
    const code = await Promise.race([
      serve.exited,
      new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 30_000)),
    ]);
    if (code === "still running") await serve.kill("SIGKILL");
    expect(code).toBe(78);
    expect(serve.stderr().trim().split("\n")).toEqual([`qbridge: ${REFUSED}`]);
    expect(api.calls).toEqual(["getMe"]);
    noStack(serve.stdout() + serve.stderr());
    expect(serve.stdout() + serve.stderr()).not.toContain(TOKEN);
  });
});

describe("a token revoked while serve runs, and a Bot API that cannot be reached", () => {
  it("a 401 later is logged once, /healthz says Telegram is refused, and the web page stays up", async () => {
    const answers: Record<string, Answer> = {};
    const api = await stub(answers);
    const serve = qbridge(["serve"], { cwd: freshDir(), env: env(api.apiRoot) });
    const webPort = await webPortOf(serve);
    await serve.waitFor(HOLDS_TOKEN);
    await healthWhen(webPort, (h) => h.parts?.telegram?.ok === true, "telegram ok");

    answers.getUpdates = UNAUTHORIZED; // revoked in BotFather
    const refusedPolls = () => api.calls.filter((m) => m === "getUpdates").length;
    const before = refusedPolls();
    const { status, body } = await healthWhen(
      webPort,
      (h) => h.parts?.telegram?.ok === false,
      "telegram refused in /healthz",
    );
    expect(status).toBe(503);
    expect(body.parts?.telegram).toEqual({ ok: false, reason: REFUSED });
    // Asked again with backoff, and said once.
    await eventually(() => refusedPolls() >= before + 3 || undefined, 20_000, "three more polls");
    expect(count(serve.stdout(), REFUSED)).toBe(1);
    expect(serve.ended()).toBeUndefined();
    const page = await fetch(`http://127.0.0.1:${webPort}/`);
    expect(page.status).toBeLessThan(500);
    expect(await serve.kill("SIGTERM")).toBe(0);
    noStack(serve.stdout() + serve.stderr());
  });

  it("an unreachable Bot API is a warning at start and in /healthz, retried until it answers", async () => {
    const apiPort = await unusedPort(); // nothing listens there yet
    const serve = qbridge(["serve"], {
      cwd: freshDir(),
      env: env(`http://127.0.0.1:${apiPort}`),
    });
    const webPort = await webPortOf(serve, 30_000);
    await serve.waitFor("qbridge serve is running", 30_000, "stderr");
    expect(serve.stderr()).toContain(
      "telegram: Telegram's Bot API cannot be reached (ECONNREFUSED): retrying with backoff",
    );
    const { status, body } = await healthWhen(
      webPort,
      (h) => h.parts?.telegram?.ok === false,
      "telegram unreachable in /healthz",
    );
    expect(status).toBe(503);
    expect(body.parts?.telegram?.reason).toBe(
      "Telegram's Bot API cannot be reached (ECONNREFUSED): retrying with backoff",
    );

    await stub({}, apiPort); // the network comes back
    await serve.waitFor(HOLDS_TOKEN, 30_000);
    await healthWhen(webPort, (h) => h.parts?.telegram?.ok === true, "telegram ok again");
    expect(serve.stdout()).toContain("Telegram's Bot API answers again");
    expect(count(serve.stdout(), "cannot be reached")).toBe(1);
    expect(await serve.kill("SIGTERM")).toBe(0);
    noStack(serve.stdout() + serve.stderr());
  });
});

describe("a Bot API that accepts the connection and never answers", () => {
  it("is told as no answer in time, not as an abort the user made", async () => {
    // A firewall that swallows packets, a proxy that hangs: start-up's getMe ends with its own
    // time limit, and the reason must say that.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const api = new Api(TOKEN, { apiRoot: `http://127.0.0.1:${port}` });
      const signal = AbortSignal.timeout(100) as Parameters<Api["getMe"]>[0];
      const error = await api.getMe(signal).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(failureOf(error, TOKEN)).toBe("no answer in time");
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
