// Long polling, one update at a time (the order a person acted in is the order handled). A
// server that answers getUpdates at once instead of holding it (an emulator, some proxies) is
// asked at most every `idleMs`. Stopping waits for the update in flight.
//
// One poller per token: Telegram ends the older of two getUpdates calls with 409. The service
// that was here first must keep the bot, so the rule is by age, not by who saw the 409: a 409
// before this loop's first successful poll means another service holds the token, and this one
// (the newcomer) stops at once; a 409 after that is retried quickly (the retry ends the
// newcomer's poll, which stops it) and stops this loop only when it persists for `graceMs`.
// Any other failure (the network, a 5xx, the token refused with 401) is retried with backoff
// and told to the standing, which logs it once and shows it in /healthz.

import { setTimeout as wait } from "node:timers/promises";
import { type Bot, GrammyError } from "grammy";
import type { Update } from "grammy/types";
import { type Backoff, nextBackoff } from "../../src/backoff.ts";
import { PollingConflict } from "./errors.ts";
import { classify, failureOf, type PollLogger, type Standing } from "./standing.ts";

export type { PollLogger } from "./standing.ts";

/**
 * What the bot asks Telegram for, by polling and by webhook alike: messages, taps, and edits
 * (an edited answer is not read again, and the boxholder is told so).
 */
export const UPDATE_KINDS: ("message" | "edited_message" | "callback_query")[] = [
  "message",
  "edited_message",
  "callback_query",
];

export interface Polling {
  stop(): Promise<void>;
  /** Resolves when the loop has ended: with the conflict after a 409 it gave up on, else undefined. */
  done: Promise<PollingConflict | undefined>;
}

export interface PollOptions {
  bot: Bot;
  logger: PollLogger;
  /** Shortest time between two getUpdates calls that returned nothing. */
  idleMs?: number;
  /** Seconds Telegram may hold a getUpdates call open. */
  timeoutSeconds?: number;
  /** How long a 409 after the first successful poll is retried before polling stops (60 s). */
  graceMs?: number;
  /**
   * Before each poll: true to poll, false to wait and ask again (not reachable yet), or the
   * conflict that ends polling before it began (a webhook holds the token).
   */
  ensureReady: (signal: AbortSignal) => Promise<boolean | PollingConflict>;
  /** Told once, after the first successful getUpdates: this service holds the token. */
  onEstablished?: () => void;
  /** Where each success and failure is told (logged once per change, shown in /healthz). */
  standing?: Standing;
}

/** The first retry after a 409 comes quickly, well inside the newcomer's held poll. */
const CONFLICT_BACKOFF: Backoff = { firstMs: 250, maxMs: 8_000 };
/** Any other failure, or a bridge not ready yet: from 1 s, doubling, up to a minute. */
const POLL_BACKOFF: Backoff = { firstMs: 1_000, maxMs: 60_000 };

/** Waits `ms`, or less when polling stops: the abort ends the wait, it is not an error. */
const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  wait(ms, undefined, { signal }).catch(() => undefined);

/** A run of 409s: when it began, when the last one came, and the next retry's wait. */
interface ConflictRun {
  since: number;
  last: number;
  retryMs: number;
}

/** The loop's state from one poll to the next. */
interface Loop {
  options: PollOptions;
  signal: AbortSignal;
  idleMs: number;
  graceMs: number;
  offset: number;
  backoff: number;
  established: boolean;
  conflict: ConflictRun | undefined;
}

export function startPolling(options: PollOptions): Polling {
  const controller = new AbortController();
  const loop: Loop = {
    options,
    signal: controller.signal,
    idleMs: options.idleMs ?? 500,
    graceMs: options.graceMs ?? 60_000,
    offset: 0,
    backoff: POLL_BACKOFF.firstMs,
    established: false,
    conflict: undefined,
  };
  const done = run(loop).catch((error) => {
    options.logger.error({ err: error }, "polling stopped");
    return undefined;
  });
  return {
    done,
    async stop() {
      controller.abort();
      await done;
    },
  };
}

/** Polls until stopped, or until a conflict ends it (the conflict is what it resolves with). */
async function run(loop: Loop): Promise<PollingConflict | undefined> {
  const { options, signal } = loop;
  while (!signal.aborted) {
    const ready = await options.ensureReady(signal);
    if (ready instanceof PollingConflict) {
      options.logger.error({ telegram: ready.telegram, newcomer: true }, ready.message);
      return ready;
    }
    if (!ready) {
      await sleep(loop.backoff, signal);
      loop.backoff = nextBackoff(loop.backoff, POLL_BACKOFF);
      continue;
    }
    const started = Date.now();
    let updates: Awaited<ReturnType<Bot["api"]["getUpdates"]>>;
    try {
      updates = await options.bot.api.getUpdates(
        {
          offset: loop.offset,
          timeout: options.timeoutSeconds ?? 25,
          allowed_updates: UPDATE_KINDS,
        },
        signal as Parameters<Bot["init"]>[0],
      );
      loop.backoff = POLL_BACKOFF.firstMs;
      options.standing?.ok();
    } catch (error) {
      if (signal.aborted) break;
      const gone = await pollFailed(loop, error);
      if (gone) return gone;
      continue;
    }
    polled(loop);
    await handleAll(loop, updates);
    const elapsed = Date.now() - started;
    if (updates.length === 0 && elapsed < loop.idleMs) await sleep(loop.idleMs - elapsed, signal);
  }
  return undefined;
}

/** After a failed getUpdates: waits to retry, or gives the conflict that ends polling. */
async function pollFailed(loop: Loop, error: unknown): Promise<PollingConflict | undefined> {
  const { options, signal } = loop;
  const kind = classify(error);
  if (kind === "conflict") return conflicted(loop, error as GrammyError);
  options.standing?.failed(kind, failureOf(error, options.bot.token));
  // Telegram's own wait (a 429's retry_after) is honoured when it is longer.
  const retryAfter = error instanceof GrammyError ? error.parameters.retry_after : undefined;
  await sleep(Math.max(loop.backoff, (retryAfter ?? 0) * 1000), signal);
  loop.backoff = nextBackoff(loop.backoff, POLL_BACKOFF);
  return undefined;
}

/**
 * A 409: a newcomer (never established) stops at once; the service that was here first keeps
 * polling through a run of them for `graceMs`, then stops too.
 */
async function conflicted(loop: Loop, error: GrammyError): Promise<PollingConflict | undefined> {
  const { options, graceMs } = loop;
  const { logger } = options;
  const now = Date.now();
  const gone = new PollingConflict(error.description);
  if (!loop.established) {
    logger.error({ telegram: gone.telegram, newcomer: true }, gone.message);
    return gone;
  }
  if (!loop.conflict) {
    loop.conflict = { since: now, last: now, retryMs: CONFLICT_BACKOFF.firstMs };
    logger.warn(
      { telegram: gone.telegram, graceSeconds: Math.round(graceMs / 1000) },
      "another poller started on this bot token; this service was here first and keeps polling (the newcomer stops)",
    );
  } else if (now - loop.conflict.since >= graceMs) {
    logger.error(
      { telegram: gone.telegram, seconds: Math.round((now - loop.conflict.since) / 1000) },
      gone.message,
    );
    return gone;
  }
  options.standing?.failed("conflict", gone.telegram);
  loop.conflict.last = now;
  await sleep(loop.conflict.retryMs, loop.signal);
  loop.conflict.retryMs = nextBackoff(loop.conflict.retryMs, CONFLICT_BACKOFF);
  return undefined;
}

/** After a successful getUpdates: the token is held (told once), and a run of 409s may be over. */
function polled(loop: Loop): void {
  const { logger } = loop.options;
  if (!loop.established) {
    loop.established = true;
    logger.info({}, "telegram polling: this service holds the bot token");
    loop.options.onEstablished?.();
  }
  // A conflict is over when a full grace-half passed without a 409: two pollers that both
  // got established would otherwise reset each other's count with every update.
  if (loop.conflict && Date.now() - loop.conflict.last >= loop.graceMs / 2) {
    logger.info({}, "the other poller is gone; polling alone again");
    loop.conflict = undefined;
  }
}

/** Handles the updates in order; one that fails is logged and the next one handled. */
async function handleAll(loop: Loop, updates: Update[]): Promise<void> {
  const { bot, logger } = loop.options;
  for (const update of updates) {
    loop.offset = update.update_id + 1;
    try {
      await bot.handleUpdate(update);
    } catch (error) {
      logger.error({ err: error, update: update.update_id }, "an update failed");
    }
  }
}
