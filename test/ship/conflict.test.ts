// Story: a second `qbridge serve` polls a bot token another one already polls. Telegram answers
// getUpdates with 409 Conflict; the service says so in one sentence and exits with 78, which the
// systemd unit's RestartPreventExitStatus keeps from restarting into the same conflict.

import { afterEach, describe, expect, it } from "vitest";
import { TOKEN } from "../support/telegram.ts";
import { type BotApiStub, CONFLICT, startBotApiStub } from "./bot-api-stub.ts";
import { freshDir, qbridge, removeFreshDirs } from "./ship-support.ts";

let stub: BotApiStub | undefined;
afterEach(async () => {
  await stub?.stop();
  stub = undefined;
  removeFreshDirs();
});

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
    const code = await Promise.race([
      serve.exited,
      new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 30_000)),
    ]);
    if (code === "still running") await serve.kill("SIGKILL");
    expect(code).toBe(78);
    const lastLine = serve.stderr().trim().split("\n").pop();
    expect(lastLine).toBe(
      "qbridge: TELEGRAM_BOT_TOKEN is in use elsewhere (Telegram answered getUpdates with 409 Conflict): another qbridge serve or a webhook is using this token; stop it, or use webhook mode (TELEGRAM_WEBHOOK_URL) in a single service",
    );
    expect(serve.stderr()).not.toMatch(/^\s+at /m);
    expect(stub.calls.filter((m) => m === "getUpdates")).toHaveLength(1);
    // The JSON log says it too, and the service stopped in order (ledger closed).
    expect(serve.stdout()).toContain("409 Conflict");
    expect(serve.stdout()).toContain('"msg":"stopped"');
    expect(serve.stdout() + serve.stderr()).not.toContain(TOKEN);
  });
});
