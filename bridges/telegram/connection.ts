// The bot's hold on the Bot API: getMe and the command menu once (`init`), long polling that
// first makes sure no other service's webhook holds the token, and the moment this service
// holds the token (`established`). When the service polls, nothing is shown before that.

import type { Bot } from "grammy";
import type { Door, SlotLogger } from "../../src/slot/port.ts";
import { registerCommands } from "./commands.ts";
import { type Polling, startPolling } from "./poll.ts";
import { classify, failureOf, type Standing } from "./standing.ts";
import { type OwnWebhook, webhookBeforePolling } from "./webhook-check.ts";

export interface PollingOptions {
  idleMs?: number;
  timeoutSeconds?: number;
  graceMs?: number;
  ownWebhook?: OwnWebhook;
}

export interface ConnectionDeps {
  token: string;
  door: Door;
  logger: SlotLogger;
  standing: Standing;
  /** The bot is known already (botInfo given): no getMe. */
  known: boolean;
  /** The service will long-poll: the token is held only once the first poll came back. */
  polls: boolean;
}

export class TelegramConnection {
  /** Whether this service holds the token: messages may be sent. */
  holdsToken: boolean;
  /** Resolves after polling's first successful getUpdates. */
  readonly established: Promise<void>;
  private establish: () => void = () => undefined;
  private ready: boolean;
  private commandsRegistered = false;
  private polling: Polling | undefined;
  private stopping = false;
  private readonly bot: Bot;
  private readonly deps: ConnectionDeps;

  constructor(bot: Bot, deps: ConnectionDeps) {
    this.bot = bot;
    this.deps = deps;
    this.holdsToken = !deps.polls;
    this.ready = deps.known;
    this.established = new Promise<void>((resolve) => {
      this.establish = resolve;
    });
  }

  /** getMe (until it works) and setMyCommands (failure logged); true once the bot is known. */
  async init(signal?: AbortSignal): Promise<boolean> {
    const { bot, deps } = this;
    if (!this.ready) {
      try {
        // getMe itself, not bot.init(): that retries a network failure on its own, silently,
        // until the signal ends it.
        bot.botInfo = await bot.api.getMe(signal as Parameters<Bot["init"]>[0]);
        this.ready = true;
        deps.standing.ok();
        deps.logger.info({ username: bot.botInfo.username }, "telegram bot ready");
      } catch (error) {
        if (!this.stopping) deps.standing.failed(classify(error), failureOf(error, deps.token));
        return false;
      }
    }
    if (!this.commandsRegistered) {
      this.commandsRegistered = true;
      await registerCommands(bot.api, deps.logger);
    }
    return true;
  }

  startPolling(options: PollingOptions = {}): Polling {
    const { bot, deps } = this;
    const { ownWebhook, ...loopOptions } = options;
    let webhookChecked = false;
    this.polling = startPolling({
      bot,
      logger: deps.logger,
      ...loopOptions,
      standing: deps.standing,
      onEstablished: () => {
        this.holdsToken = true;
        this.establish();
        deps.door.fill().catch((error) => deps.logger.error({ err: error }, "presenting failed"));
      },
      ensureReady: async (signal) => {
        if (!(await this.init(signal))) return false;
        if (webhookChecked) return true;
        const checked = await webhookBeforePolling(bot, {
          signal,
          ownWebhook,
          logger: deps.logger,
          token: deps.token,
        });
        if (checked === true) webhookChecked = true;
        return checked;
      },
    });
    return this.polling;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.polling?.stop();
  }
}
