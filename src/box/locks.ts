// Locks: a file lock per name under .qbridge/locks/ (proper-lockfile, so other processes wait
// and a killed holder's lock goes stale), with an in-process queue on top so that callers in
// one process wait for each other without polling the file system.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import lockfile from "proper-lockfile";
import { type Backoff, backoffDelay } from "../backoff.ts";
import { BoxError } from "../errors.ts";
import { createKeyedMutex } from "../mutex.ts";

export interface LockOptions {
  /** How long a lock whose holder stopped refreshing it counts as held (ms, >= 5000). */
  staleMs: number;
  /** How long to wait for a lock held by another process before giving up (ms). */
  waitMs: number;
}

export const DEFAULT_LOCK_OPTIONS: LockOptions = { staleMs: 10_000, waitMs: 60_000 };

/** Another process's lock is tried again every 5 ms more, up to 100 ms, plus up to 10 ms. */
const LOCK_BACKOFF: Backoff = { firstMs: 5, maxMs: 100, growth: "add", jitterMs: 10 };

const withInProcessLock = createKeyedMutex();

export async function withFileLock<T>(
  dir: string,
  name: string,
  options: LockOptions,
  fn: () => Promise<T>,
): Promise<T> {
  const target = join(dir, name);
  return withInProcessLock(target, async () => {
    mkdirSync(dir, { recursive: true });
    const started = Date.now();
    let release: (() => Promise<void>) | undefined;
    for (let attempt = 0; release === undefined; attempt++) {
      try {
        // One try each time: the waiting, bounded by waitMs, is this loop's.
        release = await lockfile.lock(target, {
          realpath: false,
          stale: options.staleMs,
          retries: 0,
          // The default throws from a timer, which would end the process midway.
          onCompromised: () => undefined,
        });
      } catch (error) {
        if ((error as { code?: string }).code !== "ELOCKED") throw error;
        if (Date.now() - started > options.waitMs) {
          throw new BoxError(
            `the lock ${name} has been held for over ${Math.round(options.waitMs / 1000)} s by another process; if none is running, "qbridge doctor --repair" clears it`,
          );
        }
        await sleep(backoffDelay(attempt, LOCK_BACKOFF));
      }
    }
    try {
      // A lock lost while held (its file removed, or not refreshed in time on a stalled
      // machine) is not a reason to report failure for what `fn` did: its commit landed, and
      // saying otherwise would make a recorded answer look lost. What happened is reported.
      return await fn();
    } finally {
      try {
        await release();
      } catch {
        // Lost meanwhile (see above): nothing of ours to remove.
      }
    }
  });
}
