// Before long polling's first call: is a webhook set for the bot token? Polling would need it
// deleted, and a webhook that is not this box's own belongs to a service that was there first
// (the same rule by age as between two pollers, poll.ts). Nothing is deleted unseen: when the
// state cannot be read (a Bot API server without getWebhookInfo), polling goes ahead, and a
// webhook there makes getUpdates answer 409, which stops this service as the newcomer.

import type { Bot } from "grammy";
import { type PollingConflict, WebhookHoldsToken } from "./errors.ts";
import type { PollLogger } from "./poll.ts";
import { failureOf } from "./standing.ts";

/** The webhook this box's service set in webhook mode, as the ledger remembers it. */
export interface OwnWebhook {
  url(): string | undefined;
  forget(): void;
}

/**
 * True to poll; false to ask again after a wait (deleting this box's own webhook failed); the
 * conflict that ends polling before it began when another service's webhook is set.
 */
export async function webhookBeforePolling(
  bot: Bot,
  options: { signal: AbortSignal; ownWebhook?: OwnWebhook; logger: PollLogger; token: string },
): Promise<boolean | PollingConflict> {
  const { signal, ownWebhook, logger } = options;
  const apiSignal = signal as Parameters<Bot["init"]>[0];
  let url: string;
  try {
    url = (await bot.api.getWebhookInfo(apiSignal)).url ?? "";
  } catch (error) {
    if (signal.aborted) return false;
    logger.warn(
      { err: failureOf(error, options.token) },
      "the webhook state cannot be read (getWebhookInfo); polling without deleting any webhook",
    );
    return true;
  }
  if (!url) return true;
  if (url !== ownWebhook?.url()) return new WebhookHoldsToken(url);
  try {
    await bot.api.deleteWebhook({}, apiSignal);
  } catch (error) {
    if (!signal.aborted) {
      logger.warn(
        { err: failureOf(error, options.token) },
        "deleting this box's own webhook failed; trying again",
      );
    }
    return false;
  }
  ownWebhook?.forget();
  logger.info({}, "deleted the webhook this box set in webhook mode: long polling now");
  return true;
}
