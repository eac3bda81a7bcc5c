// Webhook mode: Telegram posts updates to TELEGRAM_WEBHOOK_URL; a small listener here hands
// each to the bot after checking the X-Telegram-Bot-Api-Secret-Token header (grammY answers
// 401 to a request without the right secret). setWebhook failing is logged, not fatal.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Bot, webhookCallback } from "grammy";
import { type PollLogger, UPDATE_KINDS } from "./poll.ts";

export interface RunningWebhook {
  /** Where the listener really listens (port 0 picks a free one). */
  url: string;
  /** Whether Telegram took the webhook (setWebhook answered). */
  set: boolean;
  close(): Promise<void>;
}

export async function startWebhook(options: {
  bot: Bot;
  publicUrl: string;
  secret: string;
  host: string;
  port: number;
  logger: PollLogger;
}): Promise<RunningWebhook> {
  const { bot, logger } = options;
  const path = new URL(options.publicUrl).pathname || "/";
  const handle = webhookCallback(bot, "http", {
    secretToken: options.secret,
    onTimeout: "return",
    timeoutMilliseconds: 9_000,
  });
  const server: Server = createServer((req, res) => {
    if (req.method !== "POST" || (req.url ?? "/").split("?")[0] !== path) {
      res.writeHead(404).end();
      return;
    }
    handle(req, res).catch((error: unknown) => {
      logger.error({ err: error }, "a webhook update failed");
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  let set = false;
  try {
    await bot.api.setWebhook(options.publicUrl, {
      secret_token: options.secret,
      allowed_updates: UPDATE_KINDS,
    });
    set = true;
  } catch (error) {
    logger.warn({ err: error }, "setWebhook failed; Telegram will not deliver until it works");
  }
  return {
    url: `http://${address.address}:${address.port}${path}`,
    set,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
