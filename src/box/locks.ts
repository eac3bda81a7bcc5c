// Locks: a file lock per name under .qbridge/locks/ (proper-lockfile, so other processes wait
// and a killed holder's lock goes stale), with an in-process queue on top so that callers in
// one process wait for each other without polling the file system. A lock lost while held
// (compromised: its folder removed, or not refreshed within its stale time, so another process
// may hold it now) is never ignored: `checkLocksHeld` throws LockLost for it, and every write
// asks before its first write and before its commit (src/box/commit.ts). Once the commit has
// landed it is the truth, and a lock lost after it changes nothing that was recorded.

import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import lockfile from "proper-lockfile";
import { type Backoff, backoffDelay } from "../backoff.ts";
import { BoxError, LockLost } from "../errors.ts";
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

/** A file lock this call holds, and why it was lost, once proper-lockfile says so. */
interface Hold {
  name: string;
  /** proper-lockfile's lock folder: the target's name plus `.lock`. */
  folder: string;
  staleMs: number;
  compromised: Error | undefined;
}

/** The file locks the running call holds, innermost last. */
const holds = new AsyncLocalStorage<readonly Hold[]>();

/**
 * Throws LockLost when a lock the running call holds was lost: proper-lockfile found it
 * compromised, its folder is gone, or it was not refreshed within its stale time.
 */
export function checkLocksHeld(): void {
  for (const hold of holds.getStore() ?? []) {
    const why = lostBecause(hold);
    if (why) throw new LockLost(hold.name, why);
  }
}

function lostBecause(hold: Hold): string | undefined {
  if (hold.compromised) return hold.compromised.message;
  const changed = statSync(hold.folder, { throwIfNoEntry: false })?.mtimeMs;
  if (changed === undefined) return "its lock folder was removed";
  if (Date.now() - changed > hold.staleMs) {
    return `it was not refreshed within ${hold.staleMs} ms`;
  }
  return undefined;
}

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
    const hold: Hold = {
      name,
      folder: `${target}.lock`,
      staleMs: options.staleMs,
      compromised: undefined,
    };
    for (let attempt = 0; release === undefined; attempt++) {
      try {
        // One try each time: the waiting, bounded by waitMs, is this loop's.
        release = await lockfile.lock(target, {
          realpath: false,
          stale: options.staleMs,
          retries: 0,
          // The default throws from a timer, which would end the process midway: the loss is
          // kept, and the write this lock guards asks for it (checkLocksHeld).
          onCompromised: (error) => {
            hold.compromised = error;
          },
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
      return await holds.run([...(holds.getStore() ?? []), hold], fn);
    } finally {
      try {
        await release();
      } catch {
        // Lost meanwhile: nothing of ours to remove; the write it guarded asked (see above).
      }
    }
  });
}
