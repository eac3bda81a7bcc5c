// `qbridge serve` as an operator runs it: a real child process, stopped with a signal.

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupBoxes, makeBox, runCli, selectCard, T0 } from "../support/box.ts";
import {
  type Emulator,
  eventually,
  OWNER,
  spawnServe,
  startEmulator,
  TOKEN,
} from "../support/telegram.ts";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator.stop();
  cleanupBoxes();
});

describe("qbridge serve", () => {
  it("on a fresh machine with no bot token makes ./box, runs the web page and the sweep, and stops on SIGTERM", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "qbridge-serve-"));
    try {
      const serve = spawnServe([], { cwd, env: { QBRIDGE_WEB_PORT: "0", QBRIDGE_TIME: T0 } });
      const said = await eventually(
        () => (serve.stderr().includes("aging sweep every") ? serve.stderr() : undefined),
        20_000,
        "serve to say what it started",
      );
      expect(said).toContain(`new box ${join(cwd, "box")}`);
      expect(said).toContain("telegram off");
      expect(said).toMatch(/web page http:\/\/127\.0\.0\.1:\d+/);
      expect(existsSync(join(cwd, "box", ".git"))).toBe(true);
      expect(await serve.stop("SIGTERM")).toBe(0);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it("with a token presents through TELEGRAM_API_ROOT, survives a failing setMyCommands, logs no token, stops on SIGINT", async () => {
    const box = await makeBox();
    await runCli(["ask", "--box", box.dir], { input: JSON.stringify(selectCard()) });
    const serve = spawnServe(["--box", box.dir], {
      cwd: box.dir,
      env: {
        QBRIDGE_WEB_PORT: "0",
        QBRIDGE_TIME: T0,
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_OWNER_ID: String(OWNER),
        TELEGRAM_API_ROOT: emulator.apiRoot,
      },
    });
    const client = emulator.server.getClient(TOKEN, { userId: OWNER, chatId: OWNER });
    const delivered = await eventually(
      async () => {
        // The history, not getUpdates: the emulator client's getUpdates keeps polling after it
        // times out and marks what it finds read, so a later call can miss the message.
        const history = (await client.getUpdatesHistory()) as { message?: { text?: string } }[];
        return history.find((u) => u.message?.text?.includes("photographed receipts"));
      },
      20_000,
      "the question to reach the boxholder",
    );
    expect(delivered).toBeDefined();
    await eventually(() => serve.stdout().includes("setMyCommands failed") || undefined, 5_000);
    // The start-up summary is written once every part is up, which may be after the first
    // question was already sent.
    await eventually(
      () => serve.stderr().includes("qbridge serve is running") || undefined,
      10_000,
      "the start-up summary",
    );
    expect(serve.stderr()).toContain("boxholder: telegram user 1001");
    expect(await serve.stop("SIGINT")).toBe(0);
    expect(serve.stdout()).toContain('"msg":"stopped"');
    expect(serve.stdout() + serve.stderr()).not.toContain(TOKEN);
  });
});
