// Story: the bot token is wrong or revoked (well formed, but Telegram answers 401). At start a
// refused token is one sentence and exit 78, with no stack trace.

import { afterEach, describe, expect, it } from "vitest";
import { type Answer, type BotApiStub, startBotApiStub } from "../ship/bot-api-stub.ts";
import { freshDir, qbridge, removeFreshDirs } from "../ship/ship-support.ts";
import { TOKEN } from "../support/telegram.ts";

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

const env = (apiRoot: string, webPort: number) => ({
  QBRIDGE_WEB_PORT: String(webPort),
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_OWNER_ID: "1001",
  TELEGRAM_API_ROOT: apiRoot,
});

const noStack = (text: string) => expect(text).not.toMatch(/^\s+at |"stack"/m);

describe("a bot token Telegram refuses (401)", () => {
  it("at start: one sentence on stderr, exit 78, no polling, no stack trace", async () => {
    const api = await stub({ getMe: UNAUTHORIZED });
    const serve = qbridge(["serve"], { cwd: freshDir(), env: env(api.apiRoot, 0) });
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
