// The Telegram bridge as `qbridge serve` runs it: the bot built and attached to the slot, then
// started in the mode the settings say (long polling, or a webhook listener), with the start-up
// summary. A refused token ends start-up (TokenRefused); another poller ends the service later
// (PollingConflict, through `fail`). Both leave with exit 78, decided by the core's BridgeFailed.

import type { Transformer } from "grammy";
import { InvalidInput } from "../../src/errors.ts";
import type { Bridge, BridgeDeps } from "../../src/slot/port.ts";
import { createBot, type TelegramBridge as TelegramBot } from "./bot.ts";
import { TokenRefused } from "./errors.ts";
import type { TelegramSettings } from "./settings.ts";
import { type RunningWebhook, startWebhook } from "./webhook.ts";

/** The ledger's record of the webhook this box's service set (this bridge's meta key). */
const OWN_WEBHOOK = "own-webhook";

/** Test seams `startService` passes through for this surface. */
export interface TelegramSeams {
  transformers?: Transformer[];
  idleMs?: number;
  timeoutSeconds?: number;
}

export function createTelegramBridge(settings: TelegramSettings, deps: BridgeDeps): Bridge {
  const { door, logger } = deps;
  const token = settings.token as string;
  const seams = (deps.seams ?? {}) as TelegramSeams;
  const { webhookUrl, webhookSecret } = settings;
  if (webhookUrl && !webhookSecret) {
    throw new InvalidInput(
      "TELEGRAM_WEBHOOK_URL needs TELEGRAM_WEBHOOK_SECRET, so only Telegram can post updates: make one with openssl rand -hex 32",
    );
  }
  const bot = createBot({
    token,
    apiRoot: settings.apiRoot,
    door,
    logger,
    link: deps.link,
    questionsLink: deps.questionsLink,
    transformers: seams.transformers,
    polls: !webhookUrl,
    // /healthz shows Telegram as not ok while the token is refused, polled elsewhere, or the
    // Bot API cannot be reached; the web page itself stays up.
    onHealth: ({ ok, reason }) => deps.health({ ok, ...(reason ? { reason } : {}) }),
  });
  const parts: Parts = { settings, deps, bot, seams, webhook: undefined };
  return {
    start: () => start(parts),
    // A webhook bot holds its token from the start; a polling one after its first poll.
    ...(webhookUrl ? {} : { ready: bot.established }),
    async stop() {
      await bot.stop();
      await parts.webhook?.close();
    },
  };
}

/** What the bridge runs on: its settings and deps, the bot, and the webhook once it listens. */
interface Parts {
  settings: TelegramSettings;
  deps: BridgeDeps;
  bot: TelegramBot;
  seams: TelegramSeams;
  webhook: RunningWebhook | undefined;
}

/** Starts in webhook or long-polling mode; the lines `serve` prints for Telegram. */
async function start(parts: Parts): Promise<string[]> {
  const { settings, deps, bot } = parts;
  const summary: string[] = [];
  // One getMe before either mode starts: a refused token is a configuration error (one
  // sentence, exit 78); an unreachable Bot API is said now, and is retried with backoff.
  if (!(await bot.init(AbortSignal.timeout(15_000)))) {
    const health = bot.health();
    if (health.state === "unauthorized") throw new TokenRefused();
    summary.push(`telegram: ${health.reason}`);
  }
  const { webhookUrl, webhookSecret } = settings;
  if (webhookUrl && webhookSecret) summary.push(await listen(parts, webhookUrl, webhookSecret));
  else summary.push(poll(parts));
  const owner = deps.door.owner();
  summary.push(
    owner
      ? `boxholder: telegram user ${owner}`
      : 'no boxholder yet: run "qbridge pair" and send /start CODE to the bot',
  );
  return summary;
}

/** Webhook mode: the listener Telegram posts to, set as this token's webhook. */
async function listen(parts: Parts, webhookUrl: string, webhookSecret: string): Promise<string> {
  const { settings, deps, bot } = parts;
  const webhook = await startWebhook({
    bot: bot.bot,
    publicUrl: webhookUrl,
    secret: webhookSecret,
    host: deps.web.host,
    port: settings.webhookPort,
    logger: deps.logger,
  }).catch((error: NodeJS.ErrnoException) => {
    throw new InvalidInput(
      `the Telegram webhook listener cannot listen on ${deps.web.host}:${settings.webhookPort} (${error.code ?? error.message}): set TELEGRAM_WEBHOOK_PORT to a free port`,
    );
  });
  parts.webhook = webhook;
  // Remembered so that this box's service, moved back to long polling, deletes its own
  // webhook and no other service's.
  if (webhook.set) deps.door.meta.set(OWN_WEBHOOK, webhookUrl);
  return `telegram webhook at ${webhookUrl} (listening ${webhook.url})`;
}

/** Long-polling mode; a conflict that ends polling ends the service (deps.fail). */
function poll({ deps, bot, seams }: Parts): string {
  const { meta } = deps.door;
  const polling = bot.startPolling({
    idleMs: seams.idleMs,
    timeoutSeconds: seams.timeoutSeconds,
    ownWebhook: {
      url: () => meta.get(OWN_WEBHOOK),
      forget: () => meta.delete(OWN_WEBHOOK),
    },
  });
  void polling.done.then((conflict) => conflict && deps.fail(conflict));
  return "telegram bot (long polling)";
}
