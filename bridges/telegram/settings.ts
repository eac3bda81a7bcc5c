// The Telegram bridge's settings (TELEGRAM_*), validated with its own zod schema when the config
// is read, every problem in one sentence naming its variable, never its value.

import { z } from "zod";
import { checked, isPort, isUrl, numberSetting } from "../../src/config.ts";

export interface TelegramSettings {
  /** Unset: the bridge is off. */
  token: string | undefined;
  /** TELEGRAM_OWNER_ID: the boxholder without pairing. */
  ownerId: string | undefined;
  apiRoot: string | undefined;
  webhookSecret: string | undefined;
  /** Set: webhook mode (Telegram posts here); unset: long polling. */
  webhookUrl: string | undefined;
  /** Where the webhook listener binds (on the web host); default 8788. */
  webhookPort: number;
}

export const telegramSettings = z
  .object({
    TELEGRAM_BOT_TOKEN: checked(
      (v) => /^\d{3,}:[A-Za-z0-9_-]{20,}$/.test(v),
      "TELEGRAM_BOT_TOKEN does not look like a bot token (digits, a colon, then 20+ letters): copy it again from @BotFather",
    ),
    TELEGRAM_OWNER_ID: checked(
      (v) => /^\d{1,20}$/.test(v),
      "TELEGRAM_OWNER_ID must be your numeric Telegram user id (digits only), or unset to pair with /start",
    ),
    TELEGRAM_API_ROOT: checked(
      isUrl,
      "TELEGRAM_API_ROOT must be an http(s) URL of a Bot API server, or unset for Telegram's own",
    ),
    TELEGRAM_WEBHOOK_SECRET: checked(
      (v) => /^[A-Za-z0-9_-]{1,256}$/.test(v),
      "TELEGRAM_WEBHOOK_SECRET may hold only letters, digits, '_' and '-' (1 to 256): make one with openssl rand -hex 32",
    ),
    TELEGRAM_WEBHOOK_URL: checked(
      isUrl,
      "TELEGRAM_WEBHOOK_URL must be the public https URL Telegram posts updates to, or unset for long polling",
    ),
    TELEGRAM_WEBHOOK_PORT: numberSetting(
      isPort,
      "TELEGRAM_WEBHOOK_PORT must be a port number from 0 to 65535",
      8788,
    ),
  })
  .transform(
    (e): TelegramSettings => ({
      token: e.TELEGRAM_BOT_TOKEN,
      ownerId: e.TELEGRAM_OWNER_ID,
      apiRoot: e.TELEGRAM_API_ROOT?.replace(/\/+$/, ""),
      webhookSecret: e.TELEGRAM_WEBHOOK_SECRET,
      webhookUrl: e.TELEGRAM_WEBHOOK_URL,
      webhookPort: e.TELEGRAM_WEBHOOK_PORT,
    }),
  );
