// The Telegram bridge, built by one factory with everything passed in: the bot (grammY, with
// auto-retry for 429 and 5xx), its presenter attached to the slot, and the handlers for taps,
// typed replies and commands. Nothing talks to the network until `start` (or a test feeds
// `handleUpdate`), and a method failing at start-up is logged, never fatal.

import { autoRetry } from "@grammyjs/auto-retry";
import { Bot, type Transformer } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import { createJudge, type Slot, type SlotLogger } from "../../src/slot/port.ts";
import { createAccess } from "./access.ts";
import { commandsInAnyCase } from "./command-case.ts";
import { createCommands, registerCommands } from "./commands.ts";
import { heardFromOwner } from "./heard.ts";
import { type Polling, startPolling } from "./poll.ts";
import { createTelegramPresenter } from "./presenter.ts";
import { classify, createStanding, failureOf, type TelegramHealth } from "./standing.ts";
import { createTapHandler } from "./taps.ts";
import { createTypedReplyHandler, EDITED_REPLY } from "./typed.ts";
import { type OwnWebhook, webhookBeforePolling } from "./webhook-check.ts";

export interface BotOptions {
  token: string;
  /** Another Bot API server (TELEGRAM_API_ROOT), e.g. a self-hosted one or an emulator. */
  apiRoot?: string | undefined;
  slot: Slot;
  logger: SlotLogger;
  /** TELEGRAM_OWNER_ID: the boxholder without pairing. */
  ownerId?: string | undefined;
  /** The signed web link of a question, when a public URL is configured. */
  link?: (questionId: string) => string | undefined;
  /** A fresh signed link to the questions page, when a public URL is configured. */
  questionsLink?: () => string | undefined;
  /** Extra API transformers, applied after auto-retry (tests record calls here). */
  transformers?: Transformer[];
  /** Known bot info, to skip getMe (tests, benches). */
  botInfo?: UserFromGetMe;
  /**
   * The service will long-poll: nothing is shown until the first getUpdates came back, so a
   * second service started on a token another one polls stops without sending anything.
   */
  polls?: boolean;
  /** Told each time the standing with the Bot API changes (for /healthz). */
  onHealth?: (health: TelegramHealth) => void;
  /** Told when a callback is acknowledged (the latency bench). */
  onAcknowledged?: (callbackId: string) => void;
}

export interface TelegramBridge {
  bot: Bot;
  /** Handles one update as it would arrive by polling or webhook. */
  handleUpdate(update: Parameters<Bot["handleUpdate"]>[0]): Promise<void>;
  /**
   * getMe (until it works) and setMyCommands (failure logged); true once the bot is known. A
   * failure is told to the standing: `health()` says whether the token was refused.
   */
  init(signal?: AbortSignal): Promise<boolean>;
  /** Where the service stands with the Bot API (ok, unreachable, unauthorized, conflict). */
  health(): TelegramHealth;
  /**
   * Long polling until `stop`; nothing is shown before the first poll came back. A webhook set
   * for the token is deleted only when it is this box's own (`ownWebhook`, left from webhook
   * mode); another service's ends polling before it began (WebhookHoldsToken).
   */
  startPolling(options?: {
    idleMs?: number;
    timeoutSeconds?: number;
    graceMs?: number;
    ownWebhook?: OwnWebhook;
  }): Polling;
  /** Resolves after polling's first successful getUpdates: this service holds the token. */
  established: Promise<void>;
  stop(): Promise<void>;
}

export function createBot(options: BotOptions): TelegramBridge {
  const { slot, logger } = options;
  const bot = new Bot(options.token, {
    ...(options.botInfo ? { botInfo: options.botInfo } : {}),
    client: {
      ...(options.apiRoot ? { apiRoot: options.apiRoot } : {}),
      timeoutSeconds: 60,
    },
  });
  // getMe and getUpdates are retried by their callers, who tell the standing what failed:
  // auto-retry would retry an unreachable API silently, forever, with waits of up to an hour.
  const retry = autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 60 });
  bot.api.config.use((prev, method, payload, signal) =>
    method === "getMe" || method === "getUpdates"
      ? prev(method, payload, signal)
      : retry(prev, method, payload, signal),
  );
  for (const transformer of options.transformers ?? []) bot.api.config.use(transformer);

  const standing = createStanding({ logger, onChange: options.onHealth });
  const link = options.link ?? (() => undefined);
  const judge = createJudge(slot);
  const access = createAccess({ slot, judge, configuredOwner: options.ownerId });
  let holdsToken = !options.polls;
  let establish: () => void = () => undefined;
  const established = new Promise<void>((resolve) => {
    establish = resolve;
  });
  const presenter = createTelegramPresenter({
    api: bot.api,
    slot,
    judge,
    ownerChat: () => (holdsToken ? access.ownerId() : undefined),
    link,
  });
  slot.attach(presenter);
  const commands = createCommands({
    slot,
    judge,
    access,
    configuredOwner: options.ownerId,
    questionsLink: options.questionsLink ?? (() => undefined),
  });
  const onTap = createTapHandler({
    api: bot.api,
    judge,
    access,
    link,
    onAcknowledged: options.onAcknowledged,
  });
  const onText = createTypedReplyHandler({ slot, judge, access, link });

  // An update is marked processed when its handling has ended, never before: a process killed
  // midway gets it again after a restart (Telegram redelivers what the offset did not confirm)
  // and handles it again, which every handler can (a recorded callback replays, a card that is
  // no longer pending refuses). An update handled to the end, or in flight here, is skipped.
  const inFlight = new Set<string>();
  bot.use(async (ctx, next) => {
    const key = `${ctx.me.id}:${ctx.update.update_id}`;
    if (inFlight.has(key) || judge.handledBefore(key)) {
      logger.info({ update: ctx.update.update_id }, "update seen before; skipped");
      return;
    }
    inFlight.add(key);
    try {
      await next();
    } finally {
      inFlight.delete(key);
      judge.handled(key);
    }
  });
  bot.use(heardFromOwner(slot, access));
  bot.on("callback_query:data", onTap);
  bot.use(commandsInAnyCase);
  bot.command("start", commands.start);
  const boxholder = bot.filter((ctx) => access.isBoxholder(ctx));
  boxholder.command("waiting", commands.waiting);
  boxholder.command("next", commands.next);
  boxholder.command("park", commands.park);
  boxholder.command("later", commands.later);
  boxholder.command("dismiss", commands.dismiss);
  boxholder.command("grants", commands.grants);
  boxholder.command("revoke", commands.revoke);
  boxholder.command("help", commands.help);
  boxholder.on("message:text", async (ctx) => {
    if (ctx.message.text.startsWith("/")) {
      await ctx.reply("I do not know that command. /help lists what I understand.");
      return;
    }
    await onText(ctx);
  });
  // An edit is not a second answer; without a word the boxholder would take the edit as read.
  boxholder.on("edited_message", (ctx) =>
    ctx.reply(EDITED_REPLY, {
      reply_parameters: {
        message_id: ctx.editedMessage.message_id,
        allow_sending_without_reply: true,
      },
    }),
  );
  boxholder.on("message", (ctx) =>
    ctx.reply("I understand text only: a letter, a label, yes/no or your answer in words."),
  );
  bot.on("message", (ctx) => access.refuse(ctx, "a message from someone who is not the boxholder"));
  bot.on("callback_query", (ctx) => ctx.answerCallbackQuery());
  bot.catch((error) => {
    logger.error(
      { err: error.error, update: error.ctx.update.update_id },
      "handling an update failed",
    );
  });

  let ready = options.botInfo !== undefined;
  let commandsRegistered = false;
  let polling: Polling | undefined;
  let stopping = false;

  async function init(signal?: AbortSignal): Promise<boolean> {
    if (!ready) {
      try {
        // getMe itself, not bot.init(): that retries a network failure on its own, silently,
        // until the signal ends it.
        bot.botInfo = await bot.api.getMe(signal as Parameters<Bot["init"]>[0]);
        ready = true;
        standing.ok();
        logger.info({ username: bot.botInfo.username }, "telegram bot ready");
      } catch (error) {
        if (!stopping) standing.failed(classify(error), failureOf(error, options.token));
        return false;
      }
    }
    if (!commandsRegistered) {
      commandsRegistered = true;
      await registerCommands(bot.api, logger);
    }
    return true;
  }

  return {
    bot,
    handleUpdate: (update) => bot.handleUpdate(update),
    init,
    health: () => standing.health(),
    established,
    startPolling(pollOptions = {}) {
      const { ownWebhook, ...loopOptions } = pollOptions;
      let webhookChecked = false;
      polling = startPolling({
        bot,
        logger,
        ...loopOptions,
        standing,
        onEstablished: () => {
          holdsToken = true;
          establish();
          slot.fill().catch((error) => logger.error({ err: error }, "presenting failed"));
        },
        ensureReady: async (signal) => {
          if (!(await init(signal))) return false;
          if (webhookChecked) return true;
          const checked = await webhookBeforePolling(bot, {
            signal,
            ownWebhook,
            logger,
            token: options.token,
          });
          if (checked === true) webhookChecked = true;
          return checked;
        },
      });
      return polling;
    },
    async stop() {
      stopping = true;
      await polling?.stop();
    },
  };
}
