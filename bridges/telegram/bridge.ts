// The Telegram bridge as the bridge list holds it: its settings, the secrets among them, how
// `qbridge pair` and `qbridge doctor` speak for it. Cheap to load (every command reads the
// settings): grammY is imported only when the service creates the bot or the doctor asks it.

import type { BridgePlug } from "../../src/slot/port.ts";
import { type TelegramSettings, telegramSettings } from "./settings.ts";

export const telegram: BridgePlug<TelegramSettings> = {
  // The name presenter.ts's SURFACE gives the ledger's rows (not imported: it loads grammY).
  surface: "telegram",
  // The paired account (or TELEGRAM_OWNER_ID) in its private chat is the boxholder.
  proves: "paired-account",
  help: {
    settings:
      "Telegram: TELEGRAM_BOT_TOKEN turns it on, TELEGRAM_OWNER_ID fixes the boxholder (else pair with /start), TELEGRAM_API_ROOT points at another Bot API server, TELEGRAM_WEBHOOK_URL and TELEGRAM_WEBHOOK_SECRET (and TELEGRAM_WEBHOOK_PORT) switch from long polling to a webhook.",
    doctor:
      "with TELEGRAM_BOT_TOKEN, the bot (getMe) and its webhook (getWebhookInfo, through TELEGRAM_API_ROOT)",
  },
  schema: telegramSettings,
  on: (settings) => settings.token !== undefined,
  offLine: "telegram off (set TELEGRAM_BOT_TOKEN to turn it on)",
  secrets: (settings) => [settings.token, settings.webhookSecret],
  create: async (settings, deps) =>
    (await import("./serve.ts")).createTelegramBridge(settings, deps),
  check: async (settings) =>
    (await import("./health.ts")).createTelegramCheck({
      token: settings.token as string,
      apiRoot: settings.apiRoot,
      webhookUrl: settings.webhookUrl,
    }),
  pairing: (settings) => ({
    fixedOwner: settings.ownerId,
    userName: (userId) => `telegram user ${userId}`,
    howToSend: (code) => `Send "/start ${code}" to your bot in a private chat`,
    notes: [
      ...(settings.token
        ? []
        : [
            'TELEGRAM_BOT_TOKEN is not set here: the code is for the bot of a "qbridge serve" that has it; set it where serve runs',
          ]),
      ...(settings.ownerId
        ? [
            `TELEGRAM_OWNER_ID=${settings.ownerId} is set, so that user is the boxholder and the code will be refused`,
          ]
        : []),
    ],
  }),
};
