// Every change to a box: write files in order, then one git commit, all or nothing.
//
// Before the first write, an undo journal (.qbridge/journal/<key>.json) records what each
// file held. After the commit it is deleted. A journal found later means a writer died midway:
// `recover` either sees the commit in HEAD (done, drop the journal) or puts every file back.
// Never commits a path outside the box; never leaves a half-applied change behind on failure.

import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { GitError } from "simple-git";
import { BoxError } from "../errors.ts";
import { type Box, commitIdentity } from "./box.ts";
import { withFileLock } from "./locks.ts";
import { announceStep } from "./write-steps.ts";

export interface FileWrite {
  /** Box-relative path, forward slashes. */
  rel: string;
  content: string;
}

export interface CommitPlan {
  writes: FileWrite[];
  message: string;
  trailers: Record<string, string>;
  /**
   * What the caller records once the commit has landed (an audit line). It rides in the
   * journal, so a writer killed between its commit and that record has it recorded by
   * whoever finishes the journal.
   */
  record?: Record<string, unknown>;
}

/** Told that a plan's commit landed, with the plan's record, before its journal is dropped. */
export type Committed = (commit: string, record: Record<string, unknown>) => void;

interface Journal {
  key: string;
  files: { rel: string; before: string | null; after: string }[];
  record?: Record<string, unknown>;
}

/** Named steps of a write, announced so a test can kill the process there (write-steps.ts). */
export type CrashPoint =
  | "before-write"
  | "between-writes"
  | "before-commit"
  | "in-commit"
  | "after-commit"
  | "after-record";

function checkpoint(box: Box, point: CrashPoint): void {
  announceStep(box.paths.root, point);
}

function journalPath(box: Box, key: string): string {
  return join(box.paths.journalDir, `${key}.json`);
}

/** Writes a file so that a reader sees the old or the new content, never half of one. */
export function writeAtomic(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, content);
    renameSync(temp, path);
  } catch (error) {
    // A full disk leaves a partial temp file behind; it must not linger as an untracked file.
    rmSync(temp, { force: true });
    // A failed write(2) names no file; say which one, so the error can name the folder.
    (error as NodeJS.ErrnoException).path ??= temp;
    throw error;
  }
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function commitMessage(plan: CommitPlan): string {
  const trailers = Object.entries(plan.trailers).map(
    ([key, value]) => `${key}: ${value.replace(/\s+/g, " ")}`,
  );
  return trailers.length ? `${plan.message}\n\n${trailers.join("\n")}\n` : `${plan.message}\n`;
}

function restore(box: Box, files: Journal["files"]): void {
  for (const file of [...files].reverse()) {
    const path = box.paths.abs(file.rel);
    if (file.before === null) rmSync(path, { force: true });
    // A file the write never reached needs no rewrite (and may sit on a read-only disk).
    else if (readOrNull(path) !== file.before) writeAtomic(path, file.before);
  }
}

async function unstage(box: Box, rels: string[]): Promise<void> {
  await box.git.raw(["reset", "--quiet", "--", ...rels]).catch(() => undefined);
}

/**
 * A commit normally starts git's automatic maintenance (a `git maintenance run --auto`
 * process) before it returns: a cost on every answer. Answers skip it; the aging sweep runs it
 * instead (`maintainBox`), off the boxholder's path.
 */
const NO_AUTO_MAINTENANCE = ["-c", "maintenance.auto=false", "-c", "gc.auto=0"];

/** Left in the locks folder while git runs under the commit lock; removed when it is done. */
const GIT_RUNNING = "commit.git-running";

/**
 * Runs `fn` (which runs git) under the box-wide commit lock. A git process killed with its
 * parent (SIGKILL, the OOM killer, a whole cgroup stopped) leaves .git/index.lock behind, and
 * every later commit would fail until an operator ran doctor. The marker tells the next holder
 * of the commit lock that the previous one died while its git ran: then the lock files that
 * git left are its own, and are removed. A lock from anyone else's git (no marker) is left
 * alone and reported as a locked index.
 */
export async function withCommitLock<T>(box: Box, fn: () => Promise<T>): Promise<T> {
  return withFileLock(box.paths.locksDir, "commit", box.locks, async () => {
    const marker = join(box.paths.locksDir, GIT_RUNNING);
    if (existsSync(marker)) clearDeadGitLocks(box);
    writeFileSync(marker, `${process.pid}\n`);
    try {
      return await fn();
    } finally {
      rmSync(marker, { force: true });
    }
  });
}

/** The lock files of a git process that died: the index's, and a partial commit's temporary index. */
function clearDeadGitLocks(box: Box): void {
  const gitDir = join(box.paths.root, ".git");
  for (const name of readdirSync(gitDir)) {
    if (name === "index.lock" || /^next-index-\d+\.lock$/.test(name)) {
      rmSync(join(gitDir, name), { force: true });
    }
  }
}

/** Git's housekeeping (packing loose objects when there are many), under the commit lock. */
export async function maintainBox(box: Box): Promise<void> {
  await withCommitLock(box, async () => {
    await box.git.raw(["maintenance", "run", "--auto"]);
  });
}

/**
 * Applies the plan under the box-wide commit lock: journal, writes in order, one commit.
 * The caller holds the lock of `key` (a question id), so `key`'s journal is its own.
 */
export async function applyAndCommit(
  box: Box,
  key: string,
  plan: CommitPlan,
  onCommitted?: Committed,
): Promise<string> {
  const journal: Journal = {
    key,
    files: plan.writes.map((w) => ({
      rel: w.rel,
      before: readOrNull(box.paths.abs(w.rel)),
      after: w.content,
    })),
    ...(plan.record ? { record: plan.record } : {}),
  };
  const rels = plan.writes.map((w) => w.rel);
  checkpoint(box, "before-write");
  try {
    writeAtomic(journalPath(box, key), JSON.stringify(journal));
    plan.writes.forEach((write, i) => {
      if (i > 0) checkpoint(box, "between-writes");
      writeAtomic(box.paths.abs(write.rel), write.content);
    });
    checkpoint(box, "before-commit");
    const sha = await withCommitLock(box, async () => {
      const identity = await commitIdentity(box);
      // --verbose: simple-git waits 50 ms after any git command that prints nothing.
      await box.git.raw(["add", "--verbose", "--", ...rels]);
      checkpoint(box, "in-commit");
      const out = await box.git
        .raw([
          ...identity,
          ...NO_AUTO_MAINTENANCE,
          "commit",
          "-m",
          commitMessage(plan),
          "--only",
          "--",
          ...rels,
        ])
        .catch(async (error: unknown) => {
          // Unstaged while the commit lock is held: a reset outside it races the index.lock
          // of another writer's add or commit, and a failed reset would leave the files staged.
          await unstage(box, rels);
          throw error;
        });
      // "[main 1a2b3c4] message": the short id saves a rev-parse process per commit.
      const sha = /^\[[^\]]*?([0-9a-f]{7,40})\]/m.exec(out)?.[1];
      return sha ?? (await box.git.raw(["rev-parse", "HEAD"])).trim();
    });
    checkpoint(box, "after-commit");
    if (plan.record) onCommitted?.(sha, plan.record);
    checkpoint(box, "after-record");
    rmSync(journalPath(box, key), { force: true });
    return sha;
  } catch (error) {
    let undone = true;
    try {
      restore(box, journal.files);
      rmSync(journalPath(box, key), { force: true });
    } catch {
      // The undo failed too: the journal stays, and the next writer or doctor --repair finishes it.
      undone = false;
    }
    throw asBoxError(box, error, undone);
  }
}

function asBoxError(box: Box, error: unknown, undone: boolean): Error {
  if (error instanceof BoxError) return error;
  const next = undone
    ? "nothing was changed, try again once that is fixed"
    : 'the undo is unfinished, run "qbridge doctor --repair" once that is fixed';
  return new BoxError(`the change could not be committed (${faultOf(box, error)}); ${next}`);
}

/** The cause of a failed write or commit, in words a person can act on. */
function faultOf(box: Box, error: unknown): string {
  const { code, path } = error as NodeJS.ErrnoException;
  const text = error instanceof Error ? error.message : String(error);
  const where = path ? ` (${relative(box.paths.root, dirname(path)) || "."})` : "";
  if (code === "EROFS") return `the file system is read-only${where}`;
  if (code === "ENOSPC" || code === "EDQUOT" || /out of diskspace|no space left/i.test(text)) {
    return `the disk is full${where}`;
  }
  if (code === "EACCES" || code === "EPERM") return `permission to write was denied${where}`;
  if (/index\.lock'?: File exists/.test(text)) {
    return "git's index is locked (.git/index.lock exists: another git command is running, or one died and left it)";
  }
  const first = (text.split("\n").find((line) => line.trim() !== "") ?? text).trim();
  return error instanceof GitError ? `git refused it: ${first}` : first;
}

/**
 * Finishes what a dead writer left for `key`: returns what it did, or undefined if nothing.
 * When the commit had landed, `onCommitted` gets the writer's record before the journal goes.
 */
export async function recover(
  box: Box,
  key: string,
  onCommitted?: Committed,
): Promise<"committed" | "rolled back" | undefined> {
  const path = journalPath(box, key);
  if (!existsSync(path)) return undefined;
  let journal: Journal;
  try {
    journal = JSON.parse(readFileSync(path, "utf8")) as Journal;
  } catch {
    // A journal is written whole or not at all (rename); an unreadable one has nothing to undo.
    rmSync(path, { force: true });
    return undefined;
  }
  const last = journal.files[journal.files.length - 1];
  const inHead = last ? await headContent(box, last.rel) : null;
  if (last && inHead === last.after) {
    if (journal.record && onCommitted) {
      const commit = (await box.git.raw(["log", "-1", "--format=%H", "--", last.rel])).trim();
      onCommitted(commit, journal.record);
    }
    rmSync(path, { force: true });
    return "committed";
  }
  // A writer killed inside its commit left its files staged; unstage them as a writer would,
  // under the commit lock.
  await withCommitLock(box, () =>
    unstage(
      box,
      journal.files.map((f) => f.rel),
    ),
  );
  restore(box, journal.files);
  rmSync(path, { force: true });
  return "rolled back";
}

async function headContent(box: Box, rel: string): Promise<string | null> {
  try {
    return await box.git.raw(["cat-file", "blob", `HEAD:${rel}`]);
  } catch {
    return null;
  }
}

/** The box-relative paths the interrupted write of `key` touched, from its journal. */
export function journalPaths(box: Box, key: string): string[] {
  try {
    return (JSON.parse(readFileSync(journalPath(box, key), "utf8")) as Journal).files.map(
      (f) => f.rel,
    );
  } catch {
    return [];
  }
}

/** The keys of journals left behind by writers that died. */
export function pendingJournals(box: Box): string[] {
  if (!existsSync(box.paths.journalDir)) return [];
  return readdirSync(box.paths.journalDir)
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length));
}
