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
  constructor(readonly telegram: string) {
    super(
      "TELEGRAM_BOT_TOKEN is in use elsewhere (Telegram answered getUpdates with 409 Conflict): another qbridge serve or a webhook is using this token; stop it, or use webhook mode (TELEGRAM_WEBHOOK_URL) in a single service",
    );
  }
}
