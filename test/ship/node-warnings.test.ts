// Story: someone runs qbridge on any supported node release (20, 22, 24) and sees only what
// qbridge says: no warning of node's own (a deprecated module, an experimental feature) on
// stderr, from the commands agents run every day nor from the bot's code (doctor's bot check
// loads the Telegram stack, whose node-fetch chain pulls in node's deprecated punycode).

import { afterAll, afterEach, describe, expect, it } from "vitest";
import { cleanupBoxes, makeBox, runCli } from "../support/box.ts";
import { TOKEN } from "../support/telegram.ts";
import { type BotApiStub, startBotApiStub } from "./bot-api-stub.ts";

let stub: BotApiStub | undefined;
afterEach(async () => {
  await stub?.stop();
  stub = undefined;
});
afterAll(cleanupBoxes);

/** Only what a user's shell has: no NODE_OPTIONS that could hide or add a warning. */
const plain = { NODE_OPTIONS: "", NODE_NO_WARNINGS: "" };

describe(`qbridge on node ${process.version}`, () => {
  it("prints no warning of node's own for --version, list and doctor's bot check", async () => {
    stub = await startBotApiStub({});
    const tb = await makeBox();
    const runs = [
      await runCli(["--version"], { env: plain }),
      await runCli(["list", "--json", "--box", tb.dir], { env: plain }),
      await runCli(["doctor", "--box", tb.dir], {
        env: { ...plain, TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: stub.apiRoot },
      }),
    ];
    expect(stub.calls).toContain("getMe");
    for (const run of runs) expect(run.stderr).not.toMatch(/Warning/);
  });
});
