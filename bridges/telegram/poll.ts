// Long polling, one update at a time (the order a person acted in is the order handled). A
// server that answers getUpdates at once instead of holding it (an emulator, some proxies) is
// asked at most every `idleMs`. A 409 means another process polls this token: said once, then
// polling stops instead of fighting it, and `done` carries the conflict so the service can exit.
// Stopping waits for the update in flight.

import { type Bot, GrammyError } from "grammy";
import { PollingConflict } from "../../src/errors.ts";

export interface PollLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface Polling {
  stop(): Promise<void>;
  /** Resolves when the loop has ended: with the conflict after a 409, else undefined. */
  done: Promise<PollingConflict | undefined>;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    // The listener goes when the sleep ends either way: one left behind per idle poll would
    // pile up on the long-lived signal.
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });

export function startPolling(options: {
  bot: Bot;
  logger: PollLogger;
  /** Shortest time between two getUpdates calls that returned nothing. */
  idleMs?: number;
  /** Seconds Telegram may hold a getUpdates call open. */
  timeoutSeconds?: number;
  ensureReady: (signal: AbortSignal) => Promise<boolean>;
}): Polling {
  const { bot, logger } = options;
  const idleMs = options.idleMs ?? 500;
  const controller = new AbortController();
  const { signal } = controller;

  const loop = async (): Promise<PollingConflict | undefined> => {
    let offset = 0;
    let backoff = 1_000;
    while (!signal.aborted) {
      if (!(await options.ensureReady(signal))) {
        await sleep(backoff, signal);
        backoff = Math.min(backoff * 2, 60_000);
        continue;
      }
      const started = Date.now();
      let updates: Awaited<ReturnType<Bot["api"]["getUpdates"]>>;
      try {
        updates = await bot.api.getUpdates(
          {
            offset,
            timeout: options.timeoutSeconds ?? 25,
            allowed_updates: ["message", "callback_query"],
          },
          signal as Parameters<Bot["init"]>[0],
        );
        backoff = 1_000;
      } catch (error) {
        if (signal.aborted) break;
        if (error instanceof GrammyError && error.error_code === 409) {
          const conflict = new PollingConflict(error.description);
          logger.error({ telegram: error.description }, conflict.message);
          return conflict;
        }
        logger.warn({ err: error }, "getUpdates failed; retrying");
        await sleep(backoff, signal);
        backoff = Math.min(backoff * 2, 60_000);
        continue;
      }
      for (const update of updates) {
        offset = update.update_id + 1;
        try {
          await bot.handleUpdate(update);
        } catch (error) {
          logger.error({ err: error, update: update.update_id }, "an update failed");
        }
      }
      const elapsed = Date.now() - started;
      if (updates.length === 0 && elapsed < idleMs) await sleep(idleMs - elapsed, signal);
    }
    return undefined;
  };

  const done = loop().catch((error) => {
    logger.error({ err: error }, "polling stopped");
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
