// The box-wide commit lock, and the recovery of the lock files a git killed under it left.
//
// Git guards each file it rewrites with a `<name>.lock` beside it (the index, HEAD, the branch
// ref, packed-refs, the config). A git process killed with its parent (SIGKILL of a whole
// service, the OOM killer, a stopped cgroup) leaves them behind, and every later commit fails
// with "cannot lock ref" or "index.lock exists". A marker lives in the locks folder while git
// runs under the commit lock; the next holder of the lock that finds it knows the previous
// holder died while its git ran, so the lock files created since the marker are that git's
// own, and removes them. A lock file without the marker (someone else's git) is never removed
// here: `gitLockFiles` reports it for doctor and /healthz.

import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Box } from "./box.ts";
import { withFileLock } from "./locks.ts";

/** Left in the locks folder while git runs under the commit lock; removed when it is done. */
const GIT_RUNNING = "commit.git-running";

/** File times can be coarse; a lock this much older than the marker is still counted as after it. */
const CLOCK_SLACK_MS = 1000;

export interface GitLockFile {
  /** Box-relative path, such as `.git/HEAD.lock`. */
  rel: string;
  ageMs: number;
  /**
   * Left by a qbridge git that died under the commit lock: the marker is there, no live
   * process holds the commit lock, and the lock file is no older than the marker. The next
   * commit removes it on its own.
   */
  deadQbridgeGit: boolean;
}

/** Runs `fn` (which runs git) under the box-wide commit lock; see the header. */
export async function withCommitLock<T>(box: Box, fn: () => Promise<T>): Promise<T> {
  return withFileLock(box.paths.locksDir, "commit", box.locks, async () => {
    const marker = join(box.paths.locksDir, GIT_RUNNING);
    if (existsSync(marker)) clearDeadGitLocks(box, statSync(marker).mtimeMs);
    writeFileSync(marker, `${process.pid}\n`);
    try {
      return await fn();
    } finally {
      rmSync(marker, { force: true });
    }
  });
}

/** Unstages `rels` (the index entries go back to HEAD's), under the commit lock. */
export async function unstage(box: Box, rels: string[]): Promise<void> {
  await box.git.raw(["reset", "--quiet", "--", ...rels]);
}

function clearDeadGitLocks(box: Box, markedAt: number): void {
  for (const lock of listLockFiles(box)) {
    if (lock.mtimeMs >= markedAt - CLOCK_SLACK_MS) rmSync(lock.abs, { force: true });
  }
}

interface FoundLock {
  abs: string;
  rel: string;
  mtimeMs: number;
}

/**
 * Every lock file git may leave in the box's .git: at the top (index, HEAD, config,
 * packed-refs, a partial commit's next-index-*, ORIG_HEAD) and under refs/.
 */
function listLockFiles(box: Box): FoundLock[] {
  const gitDir = join(box.paths.root, ".git");
  const found: FoundLock[] = [];
  const visit = (dir: string, rel: string, deep: boolean) => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const abs = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (deep) visit(abs, `${rel}/${entry.name}`, true);
      } else if (entry.name.endsWith(".lock")) {
        try {
          found.push({ abs, rel: `${rel}/${entry.name}`, mtimeMs: statSync(abs).mtimeMs });
        } catch {
          // Gone meanwhile: its git finished.
        }
      }
    }
  };
  visit(gitDir, ".git", false);
  visit(join(gitDir, "refs"), ".git/refs", true);
  return found;
}

/**
 * The git lock files in the box now, each with whether it is provably a dead qbridge git's
 * (and so cleared by the next commit). Reads the file system only: no git process.
 */
export function gitLockFiles(box: Box, now = Date.now()): GitLockFile[] {
  const locks = listLockFiles(box);
  if (locks.length === 0) return [];
  const marker = join(box.paths.locksDir, GIT_RUNNING);
  // Read without the commit lock: a commit may remove the marker at any moment.
  const markedAt = statSync(marker, { throwIfNoEntry: false })?.mtimeMs;
  const commitLockLive = isLive(join(box.paths.locksDir, "commit.lock"), box.locks.staleMs, now);
  return locks.map((lock) => ({
    rel: lock.rel,
    ageMs: Math.max(0, now - lock.mtimeMs),
    deadQbridgeGit:
      markedAt !== undefined && !commitLockLive && lock.mtimeMs >= markedAt - CLOCK_SLACK_MS,
  }));
}

/** Whether a proper-lockfile lock is held by a live process (refreshed within its stale time). */
function isLive(lock: string, staleMs: number, now: number): boolean {
  try {
    return now - statSync(lock).mtimeMs < staleMs;
  } catch {
    return false;
  }
}
