// Webhook mode: updates are accepted only with the secret-token header Telegram sends.

import { afterEach, describe, expect, it } from "vitest";
import { NO_PUBLIC_URL_HTML } from "../../bridges/telegram/commands.ts";
import { BRIDGES } from "../../src/cli/bridges.ts";
import { loadConfig } from "../../src/config.ts";
import { type Service, startService } from "../../src/service.ts";
import { cleanupBoxes, makeBox, T0 } from "../support/box.ts";
import { unusedPort } from "../support/ports.ts";
import { OWNER, recorder, TOKEN, useEmulator } from "../support/telegram.ts";

const emulator = useEmulator();
let service: Service | undefined;
afterEach(async () => {
  await service?.stop();
  cleanupBoxes();
});

const quiet = { info() {}, warn() {}, error() {}, debug() {} } as never;
const SECRET = "s3cret-for-the-test";

function waitingCommand(updateId: number) {
  return {
    update_id: updateId,
    message: {
      message_id: updateId,
      date: 1,
      chat: { id: OWNER, type: "private", first_name: "O" },
      from: { id: OWNER, is_bot: false, first_name: "O" },
      text: "/waiting",
      entities: [{ type: "bot_command", offset: 0, length: 8 }],
    },
  };
}

describe("webhook mode", () => {
  it("refuses an update without the secret header and handles one with it", async () => {
    const box = await makeBox();
    const port = await unusedPort();
    const rec = recorder();
    service = await startService({
      config: loadConfig(
        {
          QBRIDGE_BOX: box.dir,
          QBRIDGE_TIME: T0,
          TELEGRAM_BOT_TOKEN: TOKEN,
          TELEGRAM_OWNER_ID: String(OWNER),
          TELEGRAM_API_ROOT: emulator().apiRoot,
          TELEGRAM_WEBHOOK_URL: `http://127.0.0.1:${port}/telegram`,
          TELEGRAM_WEBHOOK_SECRET: SECRET,
          TELEGRAM_WEBHOOK_PORT: String(port),
        },
        {},
        BRIDGES,
      ),
      logger: quiet,
      web: false,
      seams: { telegram: { transformers: [rec.transformer] } },
    });
    expect(rec.calls.find((c) => c.method === "setWebhook")?.payload).toMatchObject({
      url: `http://127.0.0.1:${port}/telegram`,
      secret_token: SECRET,
    });
    const url = `http://127.0.0.1:${port}/telegram`;
    const post = (headers: Record<string, string>, id: number) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(waitingCommand(id)),
      });

    const forged = await post({ "x-telegram-bot-api-secret-token": "wrong" }, 1);
    expect(forged.status).toBe(401);
    const missing = await post({}, 2);
    expect(missing.status).toBe(401);
    expect(rec.calls.filter((c) => c.method === "sendMessage")).toHaveLength(0);

    const genuine = await post({ "x-telegram-bot-api-secret-token": SECRET }, 3);
    expect(genuine.status).toBe(200);
    const replies = rec.calls.filter((c) => c.method === "sendMessage");
    expect(replies.map((c) => c.payload.text)).toEqual([
      `Nothing is waiting on you.\n\n${NO_PUBLIC_URL_HTML}`,
    ]);
  });
});
