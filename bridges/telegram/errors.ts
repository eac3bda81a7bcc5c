// The Telegram refusals that end the service (exit 78 through BridgeFailed): the token refused,
// or held by another poller or a webhook. Telegram's own words stay in the logs, not here.

import { BridgeFailed } from "../../src/errors.ts";

/** Telegram answered 401: the bot token was revoked or mistyped (it looks well formed). */
export class TokenRefused extends BridgeFailed {
  override name = "TokenRefused";
  constructor() {
    super("Telegram refused TELEGRAM_BOT_TOKEN (401 Unauthorized): copy it again from @BotFather");
  }
}

/** Telegram answered getUpdates with 409: another poller or a webhook holds this bot token. */
export class PollingConflict extends BridgeFailed {
  override name = "PollingConflict";
  constructor(
    readonly telegram: string,
    sentence = "TELEGRAM_BOT_TOKEN is in use elsewhere (Telegram answered getUpdates with 409 Conflict): another qbridge serve or a webhook is using this token; stop it, or use webhook mode (TELEGRAM_WEBHOOK_URL) in a single service",
  ) {
    super(sentence);
  }
}

/**
 * A webhook that is not this box's own is set for the bot token: Telegram posts the updates to
 * another service, and polling would first have to delete its webhook, taking the bot from it.
 * The service that was there first keeps the bot, as with two pollers. Only the webhook's
 * origin is told: its path may carry a secret.
 */
export class WebhookHoldsToken extends PollingConflict {
  override name = "WebhookHoldsToken";
  /** The URL itself is not kept: an error's fields reach the JSON log. */
  constructor(url: string) {
    const origin = originOf(url);
    super(
      `a webhook is set (${origin})`,
      `TELEGRAM_BOT_TOKEN is in use by a webhook: Telegram posts this bot's updates to ${origin}, and polling here would take them from the service there; stop that service and delete its webhook (Telegram's deleteWebhook), or run one service in webhook mode (TELEGRAM_WEBHOOK_URL)`,
    );
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "an address that is not a URL";
  }
}
