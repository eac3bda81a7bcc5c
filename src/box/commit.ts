// Every change to a box: write files in order, then one git commit, all or nothing.
//
// Before the first write, an undo journal (journal.ts) records what each file held; after the
// commit it is deleted, and a writer that died midway is finished or undone from it. Git runs
// under the box-wide commit lock (commit-lock.ts); a failure is told in one sentence
// (commit-errors.ts).
// Never commits a path outside the box; never leaves a half-applied change behind on failure.

import { readOrNull, writeAtomic } from "./atomic.ts";
import { type Box, commitAs } from "./box.ts";
import { asBoxError } from "./commit-errors.ts";
import { withCommitLock } from "./commit-lock.ts";
import { dropSavedIndex, putIndexBack, saveIndex } from "./index-snapshot.ts";
import { type Committed, dropJournal, type Journal, restore, writeJournal } from "./journal.ts";
import { checkLocksHeld } from "./locks.ts";

import { announceStep } from "./write-steps.ts";

export { writeAtomic } from "./atomic.ts";
export { withCommitLock } from "./commit-lock.ts";
export type { Committed } from "./journal.ts";
export { journalPaths, pendingJournals, recover } from "./journal.ts";

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
  /**
   * Work done while git runs, where a short process would otherwise sit idle waiting for it (an
   * ask opens the ledger, then makes its reply). `whileAdding` runs once `git add` is under way:
   * if it throws, nothing is committed (the change is undone and its own error thrown).
   * `whileCommitting` runs once `git commit` is under way: if it throws, the commit stands and
   * its error is thrown once the change is recorded.
   */
  meanwhile?: { whileAdding?: () => void; whileCommitting?: () => void };
}

/** Named steps of a write, announced so a test can kill the process there (write-steps.ts). */
export type CrashPoint =
  | "before-write"
  | "between-writes"
  | "mid-write"
  | "before-commit"
  | "in-commit"
  | "after-commit"
  | "after-record";

function checkpoint(box: Box, point: CrashPoint): void {
  announceStep(box.paths.root, point);
}

/** Marks a commit failure after which the files could not be unstaged. */
const INDEX_STAGED = Symbol("index-staged");

function commitMessage(plan: CommitPlan): string {
  const trailers = Object.entries(plan.trailers).map(
    ([key, value]) => `${key}: ${value.replace(/\s+/g, " ")}`,
  );
  return trailers.length ? `${plan.message}\n\n${trailers.join("\n")}\n` : `${plan.message}\n`;
}

/**
 * A commit normally starts git's automatic maintenance (a `git maintenance run --auto`
 * process) before it returns: a cost on every answer. Answers skip it; the aging sweep runs it
 * instead (`maintainBox`), off the boxholder's path.
 */
export const NO_AUTO_MAINTENANCE = ["-c", "maintenance.auto=false", "-c", "gc.auto=0"];

/**
 * Git flushes few of its files by default: a power cut right after an acknowledged answer
 * could lose the commit's objects or the branch's move. For our commits it flushes the
 * objects, the refs and the index (`core.fsync`, git 2.36+), each with a real fsync.
 */
export const DURABLE_GIT = ["-c", "core.fsync=committed,index", "-c", "core.fsyncMethod=fsync"];

function durability(box: Box): string[] {
  return box.durable ? DURABLE_GIT : [];
}

/**
 * Runs `work` once git's process is started: simple-git spawns it within the turn of the event
 * loop that asked, so the next turn finds it running on its own core while `work` runs here.
 * Git's failure is the caller's to await (marked handled meanwhile, not reported as unhandled).
 * What `work` threw is returned once git is done (so the index is never put back under it).
 */
async function whileGitRuns(
  git: Promise<unknown>,
  work: (() => void) | undefined,
): Promise<{ error: unknown } | undefined> {
  if (!work) return undefined;
  git.catch(() => undefined);
  await new Promise((turn) => setImmediate(turn));
  try {
    work();
    return undefined;
  } catch (error) {
    await git.catch(() => undefined);
    return { error };
  }
}

/** A plan's whileAdding threw: its own error, thrown as it is once the change is undone. */
class MeanwhileFailed {
  constructor(readonly error: unknown) {}
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
  const journal = journalFor(box, key, plan);
  const rels = plan.writes.map((w) => w.rel);
  let landed: Landed;
  checkpoint(box, "before-write");
  checkLocksHeld();
  try {
    writeInOrder(box, journal, plan.writes);
    checkpoint(box, "before-commit");
    landed = await withCommitLock(box, () => commitWrites(box, plan, rels));
    checkpoint(box, "after-commit");
    if (plan.record) onCommitted?.(landed.sha, plan.record);
    checkpoint(box, "after-record");
    dropJournal(box, key);
  } catch (error) {
    throw undoChange(box, journal, error);
  }
  if (landed.late) throw landed.late.error;
  return landed.sha;
}

/** A landed commit, and what the plan's whileCommitting threw (thrown once it is recorded). */
interface Landed {
  sha: string;
  late: { error: unknown } | undefined;
}

/** The undo journal of `plan`: what each file holds now, what it will hold, and the record. */
function journalFor(box: Box, key: string, plan: CommitPlan): Journal {
  return {
    key,
    files: plan.writes.map((w) => ({
      rel: w.rel,
      before: readOrNull(box.paths.abs(w.rel)),
      after: w.content,
    })),
    ...(plan.record ? { record: plan.record } : {}),
  };
}

/** Writes the journal first, then each file in order, each atomically (fsynced when durable). */
function writeInOrder(box: Box, journal: Journal, writes: FileWrite[]): void {
  writeJournal(box, journal);
  writes.forEach((write, i) => {
    if (i > 0) checkpoint(box, "between-writes");
    writeAtomic(box.paths.abs(write.rel), write.content, {
      durable: box.durable,
      written: () => checkpoint(box, "mid-write"),
    });
  });
}

/** Adds and commits `rels`; must run under the commit lock; puts the index back on failure. */
async function commitWrites(box: Box, plan: CommitPlan, rels: string[]): Promise<Landed> {
  const saved = saveIndex(box);
  try {
    // --verbose: simple-git waits 50 ms after any git command that prints nothing.
    const adding = box.git.raw([...durability(box), "add", "--verbose", "--", ...rels]);
    const refused = await whileGitRuns(adding, plan.meanwhile?.whileAdding);
    if (refused) throw new MeanwhileFailed(refused.error);
    await adding;
    // The last moment a lost lock can stop the change: once git commits, the commit is the truth.
    checkLocksHeld();
    checkpoint(box, "in-commit");
    const committing = commitAs(box, [
      ...NO_AUTO_MAINTENANCE,
      ...durability(box),
      "commit",
      "-m",
      commitMessage(plan),
      "--only",
      "--",
      ...rels,
    ]);
    const late = await whileGitRuns(committing, plan.meanwhile?.whileCommitting);
    const out = await committing;
    // "[main 1a2b3c4] message": the short id saves a rev-parse process per commit.
    const sha = /^\[[^\]]*?([0-9a-f]{7,40})\]/m.exec(out)?.[1];
    return { sha: sha ?? (await box.git.raw(["rev-parse", "HEAD"])).trim(), late };
  } catch (error) {
    // Put back while the commit lock is held: outside it, another writer's add or commit
    // could be changing the index. If it cannot be put back, the files stay staged, so the
    // journal must stay for doctor --repair (or the next writer) to unstage them.
    if (!(await putIndexBack(box, saved, rels))) {
      throw Object.assign(error as object, { [INDEX_STAGED]: true });
    }
    throw error;
  } finally {
    dropSavedIndex(saved);
  }
}

/** Undoes the files from the journal after `error`; returns the error the caller must throw. */
function undoChange(box: Box, journal: Journal, error: unknown): unknown {
  // Files left staged (the index could not be put back) keep the journal, so the next
  // writer of this question or doctor --repair unstages them.
  const staged = (error as { [INDEX_STAGED]?: boolean })[INDEX_STAGED] === true;
  let undone = !staged;
  try {
    restore(box, journal.files);
    if (!staged) dropJournal(box, journal.key);
  } catch {
    // The undo failed too: the journal stays, and the next writer or doctor --repair finishes it.
    undone = false;
  }
  if (!(error instanceof MeanwhileFailed)) return asBoxError(box, error, undone);
  // The caller's own failure, once the change is undone; else what the undo left to do.
  return undone ? error.error : asBoxError(box, error.error, undone);
}
