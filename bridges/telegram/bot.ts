// The Telegram bridge, built by one factory with everything passed in: the bot (grammY, with
// auto-retry for 429 and 5xx), its presenter attached to the slot, the handlers for taps, typed
// replies and commands (routed in routes.ts), and its hold on the Bot API (connection.ts).
// Nothing talks to the network until `start` (or a test feeds `handleUpdate`), and a method
// failing at start-up is logged, never fatal.

import { autoRetry } from "@grammyjs/auto-retry";
import { Bot, type Transformer } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { Door, SlotLogger } from "../../src/slot/port.ts";
import { createAccess } from "./access.ts";
import { createCommands } from "./commands.ts";
import { type PollingOptions, TelegramConnection } from "./connection.ts";
import type { Polling } from "./poll.ts";
import { createTelegramPresenter } from "./presenter.ts";
import { routeUpdates } from "./routes.ts";
import { createStanding, type TelegramHealth } from "./standing.ts";
import { createTapHandler } from "./taps.ts";
import { createTypedReplyHandler } from "./typed.ts";

export interface BotOptions {
  token: string;
  /** Another Bot API server (TELEGRAM_API_ROOT), e.g. a self-hosted one or an emulator. */
  apiRoot?: string | undefined;
  /** The bridge's door into the core; its surface names the owner TELEGRAM_OWNER_ID fixes. */
  door: Door;
  logger: SlotLogger;
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
  startPolling(options?: PollingOptions): Polling;
  /** Resolves after polling's first successful getUpdates: this service holds the token. */
  established: Promise<void>;
  stop(): Promise<void>;
}

export function createBot(options: BotOptions): TelegramBridge {
  const { door, logger } = options;
  const bot = botWithRetries(options);
  const standing = createStanding({ logger, onChange: options.onHealth });
  const { link, questionsLink } = buttonLinks(options, logger);
  const configuredOwner = "fixedOwner" in door.surface ? door.surface.fixedOwner : undefined;
  const access = createAccess({ door, configuredOwner });
  const connection = new TelegramConnection(bot, {
    token: options.token,
    door,
    logger,
    standing,
    known: options.botInfo !== undefined,
    polls: options.polls === true,
  });
  const presenter = createTelegramPresenter({
    api: bot.api,
    door,
    ownerChat: () => (connection.holdsToken ? access.ownerId() : undefined),
    link,
  });
  door.attach(presenter);
  routeUpdates(bot, {
    door,
    access,
    logger,
    commands: createCommands({
      door,
      access,
      configuredOwner,
      questionsLink,
    }),
    onTap: createTapHandler({
      api: bot.api,
      door,
      access,
      link,
      onAcknowledged: options.onAcknowledged,
    }),
    onText: createTypedReplyHandler({ door, access, link }),
  });
  return {
    bot,
    handleUpdate: (update) => bot.handleUpdate(update),
    init: (signal) => connection.init(signal),
    health: () => standing.health(),
    established: connection.established,
    startPolling: (pollOptions) => connection.startPolling(pollOptions),
    stop: () => connection.stop(),
  };
}

/**
 * True for a link Telegram takes on a URL button. It refuses a host without a dot (localhost, a
 * LAN name such as http://nas:8787) with 400 "Wrong HTTP URL", and the whole message with it.
 */
export function takesButtonLink(url: string): boolean {
  const { hostname } = new URL(url);
  return hostname.includes(".") || hostname.startsWith("[");
}

/**
 * The web links for the 🌐 buttons, none where Telegram would refuse them: the message goes out
 * without that button (the log says why, once) instead of not at all.
 */
function buttonLinks(options: BotOptions, logger: SlotLogger) {
  let warned = false;
  const onButton = (url: string | undefined) => {
    if (url === undefined || takesButtonLink(url)) return url;
    if (!warned) {
      warned = true;
      logger.warn(
        { host: new URL(url).host },
        "Telegram refuses a button link to a host without a dot: no 🌐 buttons (set QBRIDGE_PUBLIC_URL to a full domain name)",
      );
    }
    return undefined;
  };
  return {
    link: (id: string) => onButton(options.link?.(id)),
    questionsLink: () => onButton(options.questionsLink?.()),
  };
}

/** The bot, with auto-retry for every method but the two whose callers retry and report. */
function botWithRetries(options: BotOptions): Bot {
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
  return bot;
}
