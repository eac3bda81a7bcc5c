// The composition root of `qbridge serve`: the box and ledger, the slot with its watcher, the
// Telegram bridge (when a token is set), the web page, and the aging sweep on a timer. The only
// file besides the CLI that knows the bridges. Stopping finishes the update in flight, then
// closes the web server and the ledger.

import type { Transformer } from "grammy";
import pino, { type Logger } from "pino";
import pinoPretty from "pino-pretty";
import { createBot, type TelegramBridge } from "../bridges/telegram/bot.ts";
import { type RunningWebhook, startWebhook } from "../bridges/telegram/webhook.ts";
import type { Config } from "./config.ts";
import { InvalidInput, TokenRefused } from "./errors.ts";
import { ageQuestions, type SweepReport } from "./questions/aging.ts";
import type { Core } from "./questions/core.ts";
import { openCore } from "./questions/open.ts";
import { createSlot, type Slot } from "./slot/slot.ts";
import { createHealthProbe, type HealthProbe } from "./web/health.ts";
import { linkUrl, loadSecret } from "./web/links.ts";
import { type RunningWeb, startWeb } from "./web/server.ts";
import { createWebhookSender } from "./webhooks/delivery.ts";

export interface ServiceOptions {
  config: Config;
  logger: Logger;
  /** How often the slot looks for cards changed by other processes (default 1 s). */
  watchMs?: number;
  /** Start the web page (default true). */
  web?: boolean;
  /** Test seams for the bridge: API transformers and the polling pace. */
  telegram?: { transformers?: Transformer[]; idleMs?: number; timeoutSeconds?: number };
}

export interface Service {
  core: Core;
  slot: Slot;
  bridge: TelegramBridge | undefined;
  web: RunningWeb | undefined;
  webhook: RunningWebhook | undefined;
  /** What /healthz shows; a part (a bridge) reports its own state with `health.report(name, ...)`. */
  health: HealthProbe;
  /** One line per part that runs, for the operator. */
  started: string[];
  /**
   * Settles with the error when a part fails so that the service must end (Telegram's 409: the
   * bot token is polled elsewhere); never settles otherwise. The caller stops the service.
   */
  failed: Promise<Error>;
  /** Runs the aging sweep now (nudges through the bridge), then reconciles the slot. */
  sweep(): Promise<SweepReport>;
  stop(): Promise<void>;
}

/** Pino logs as JSON lines (or human-readable), with the configured secrets blanked out. */
export function createLogger(config: Config, options: { pretty?: boolean } = {}): Logger {
  const secrets = [
    config.telegram.token,
    config.telegram.webhookSecret,
    config.apiToken,
    config.webhooks.secret,
  ]
    .filter((s): s is string => Boolean(s))
    .flatMap((s) => [s, encodeURIComponent(s)]);
  const out = options.pretty
    ? pinoPretty({ colorize: process.stdout.isTTY, destination: 1, sync: true })
    : process.stdout;
  const scrub = (line: string) =>
    secrets.reduce((text, secret) => text.split(secret).join("[secret]"), line);
  return pino(
    { level: config.logLevel, base: undefined },
    { write: (line: string) => out.write(scrub(line)) },
  );
}

export async function startService(options: ServiceOptions): Promise<Service> {
  const { config, logger } = options;
  const core = openCore(config);
  core.ledger.faultLog = (fields, message) => logger.warn(fields, message);
  const slot = createSlot({ core, logger });
  const health = createHealthProbe(core);
  const started: string[] = [`box ${config.boxDir} (ledger ${core.box.paths.ledgerPath})`];
  let bridge: TelegramBridge | undefined;
  let webhook: RunningWebhook | undefined;
  let web: RunningWeb | undefined;
  let fail: (error: Error) => void = () => undefined;
  let polled: Promise<void> | undefined;
  const failed = new Promise<Error>((resolve) => {
    fail = resolve;
  });

  const { token } = config.telegram;
  try {
    if (token) {
      if (config.telegram.webhookUrl && !config.telegram.webhookSecret) {
        throw new InvalidInput(
          "TELEGRAM_WEBHOOK_URL needs TELEGRAM_WEBHOOK_SECRET, so only Telegram can post updates: make one with openssl rand -hex 32",
        );
      }
      const secret = loadSecret(core.box);
      bridge = createBot({
        token,
        apiRoot: config.telegram.apiRoot,
        slot,
        logger,
        ownerId: config.telegram.ownerId,
        link: (id) => linkUrl(config.web.publicUrl, secret, { question: id }, core.box.clock.now()),
        questionsLink: () =>
          linkUrl(config.web.publicUrl, secret, { page: "questions" }, core.box.clock.now()),
        transformers: options.telegram?.transformers,
        polls: !config.telegram.webhookUrl,
        // /healthz shows Telegram as not ok while the token is refused, polled elsewhere, or
        // the Bot API cannot be reached; the web page itself stays up.
        onHealth: ({ ok, reason }) =>
          health.report("telegram", { ok, ...(reason ? { reason } : {}) }),
      });
    }
    if (options.web !== false) {
      web = await startWeb({
        core,
        config,
        health,
        logger,
        onTransition: () => slot.reconcile(),
      });
    }

    // The box and the ledger are brought in step (a dead writer's half-change finished or
    // undone, a dead process's claim superseded) before the first update is handled, so a tap
    // or a reply that arrives at start-up meets the slot as it really is.
    await slot.reconcile();

    if (bridge) {
      // One getMe before either mode starts: a refused token is a configuration error (one
      // sentence, exit 78); an unreachable Bot API is said now, and is retried with backoff.
      if (!(await bridge.init(AbortSignal.timeout(15_000)))) {
        const health = bridge.health();
        if (health.state === "unauthorized") throw new TokenRefused();
        started.push(`telegram: ${health.reason}`);
      }
      if (config.telegram.webhookUrl && config.telegram.webhookSecret) {
        webhook = await startWebhook({
          bot: bridge.bot,
          publicUrl: config.telegram.webhookUrl,
          secret: config.telegram.webhookSecret,
          host: config.web.host,
          port: config.telegram.webhookPort,
          logger,
        }).catch((error: NodeJS.ErrnoException) => {
          throw new InvalidInput(
            `the Telegram webhook listener cannot listen on ${config.web.host}:${config.telegram.webhookPort} (${error.code ?? error.message}): set TELEGRAM_WEBHOOK_PORT to a free port`,
          );
        });
        started.push(
          `telegram webhook at ${config.telegram.webhookUrl} (listening ${webhook.url})`,
        );
      } else {
        const polling = bridge.startPolling({
          idleMs: options.telegram?.idleMs,
          timeoutSeconds: options.telegram?.timeoutSeconds,
        });
        void polling.done.then((conflict) => conflict && fail(conflict));
        polled = bridge.established;
        started.push("telegram bot (long polling)");
      }
      const owner = config.telegram.ownerId ?? slot.owners.get("telegram")?.userId;
      started.push(
        owner
          ? `boxholder: telegram user ${owner}`
          : 'no boxholder yet: run "qbridge pair" and send /start CODE to the bot',
      );
    } else {
      started.push("telegram off (set TELEGRAM_BOT_TOKEN to turn it on)");
    }
    if (web) started.push(`web page ${web.url}`);
  } catch (error) {
    await bridge?.stop();
    await webhook?.close();
    await web?.close();
    await slot.close();
    core.ledger.close();
    throw error;
  }

  slot.watch(options.watchMs ?? 1_000);

  // Answer webhooks: on when a signing secret is set; the outbox is in the ledger.
  const webhooks = config.webhooks.secret
    ? createWebhookSender({
        core,
        secret: config.webhooks.secret,
        giveUpAfterMs: config.webhooks.giveUpAfterMs,
        logger,
      })
    : undefined;
  webhooks?.start();
  if (webhooks) {
    started.push(
      `answer webhooks on${config.webhooks.url ? ` (every question to ${new URL(config.webhooks.url).origin})` : " (per-question callbacks)"}`,
    );
  }

  let sweeping: Promise<SweepReport> | undefined;
  const sweep = () => {
    sweeping ??= (async () => {
      try {
        const report = await ageQuestions(core, { nudge: slot.nudger() });
        if (report.expired.length || report.nudged.length) {
          logger.info(
            { expired: report.expired, nudged: report.nudged, due: report.nudgeDue },
            "aging sweep",
          );
        }
        await slot.reconcile();
        const told = await slot.tellExpired();
        if (told.length) logger.info({ told }, "told the boxholder of expired questions");
        return report;
      } finally {
        sweeping = undefined;
      }
    })();
    return sweeping;
  };
  const sweepMs = Math.max(1_000, config.sweepMinutes * 60_000);
  const sweepTimer = setInterval(() => {
    sweep().catch((error) => logger.error({ err: error }, "aging sweep failed"));
  }, sweepMs);
  await sweep().catch((error) => logger.error({ err: error }, "aging sweep failed"));
  // A polling bot nudges nobody before it holds the token (a newcomer sends nothing): the
  // sweep runs again once it does.
  void polled?.then(() =>
    sweep().catch((error) => logger.error({ err: error }, "aging sweep failed")),
  );
  started.push(`aging sweep every ${config.sweepMinutes} min`);

  let stopping: Promise<void> | undefined;
  return {
    core,
    slot,
    bridge,
    web,
    webhook,
    health,
    started,
    failed,
    sweep,
    stop() {
      stopping ??= (async () => {
        clearInterval(sweepTimer);
        await sweeping?.catch(() => undefined);
        await webhooks?.stop();
        await bridge?.stop();
        await webhook?.close();
        await slot.close();
        await web?.close();
        core.ledger.close();
        logger.info({}, "stopped");
      })();
      return stopping;
    },
  };
}
