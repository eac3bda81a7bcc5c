// The process that holds a presentation whose screen lives only as long as that process (a
// `qbridge chat` at a terminal). Its holder id names the host, the process id and a lease: a
// file lock (proper-lockfile) the process keeps fresh and removes when it exits. Any process can
// then tell that the holder is gone, so a quit or killed chat never keeps the slot: at once when
// the lease was removed or the process id is dead on this host, else once the lease goes stale
// (a reused process id, another host sharing the box).
//
// Never decides anything about the slot itself: the slot asks `holderGone` and acts.

import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import lockfile from "proper-lockfile";

/** A lease not refreshed for this long belongs to a process that stopped (proper-lockfile's default). */
const LEASE_STALE_MS = 10_000;

const HOLDER = /^(\d+):([0-9a-f]{16})@(.+)$/;

export interface HolderLease {
  /** This process's holder id, once its lease is taken (taken on first use). */
  acquire(): Promise<string>;
  /** Gives the lease up: every presentation it held counts as gone from then on. */
  release(): Promise<void>;
}

function leasePath(locksDir: string, nonce: string): string {
  return join(locksDir, "holders", nonce);
}

export function createHolderLease(locksDir: string, onLost: (error: Error) => void): HolderLease {
  const nonce = randomBytes(8).toString("hex");
  const id = `${process.pid}:${nonce}@${hostname()}`;
  const path = leasePath(locksDir, nonce);
  let taken: Promise<() => Promise<void>> | undefined;
  return {
    async acquire() {
      taken ??= (async () => {
        mkdirSync(join(locksDir, "holders"), { recursive: true });
        return lockfile.lock(path, {
          realpath: false,
          stale: LEASE_STALE_MS,
          retries: 0,
          onCompromised: onLost,
        });
      })();
      try {
        await taken;
      } catch (error) {
        taken = undefined;
        throw error;
      }
      return id;
    },
    async release() {
      const release = await taken?.catch(() => undefined);
      taken = undefined;
      await release?.().catch(() => undefined);
    },
  };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is only someone else's.
    return (error as { code?: string }).code === "EPERM";
  }
}

/**
 * True when the process that holds `holder` is gone; its lease is cleared then. An id this
 * version cannot read counts as alive: the slot never takes over on a guess.
 */
export function holderGone(locksDir: string, holder: string): boolean {
  const match = HOLDER.exec(holder);
  if (!match) return false;
  const [, pid, nonce, host] = match as unknown as [string, string, string, string];
  const path = leasePath(locksDir, nonce);
  let leased: boolean;
  try {
    leased = lockfile.checkSync(path, { realpath: false, stale: LEASE_STALE_MS });
  } catch {
    leased = false;
  }
  const gone = !leased || (host === hostname() && !processAlive(Number(pid)));
  if (gone) rmSync(`${path}.lock`, { recursive: true, force: true });
  return gone;
}
