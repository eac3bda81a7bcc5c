// The guarded transition: every answer, dismissal and expiry runs through here.
// 1. a cross-process lock per question, then an in-process one on top (locks.ts);
// 2. the card re-read and re-validated, its status checked against the allowed set;
// 3. the plan's writes in order (job before card: the card's flip is the commit point);
// 4. one commit, or everything put back as it was (commit.ts).
// It never writes a card outside this function.

import {
  applyAndCommit,
  type CommitPlan,
  type Committed,
  pendingJournals,
  recover,
} from "../box/commit.ts";
import { withFileLock } from "../box/locks.ts";
import { checkId, isValidId } from "../box/paths.ts";
import { parseQuestion } from "../card/load.ts";
import type { Question, Status } from "../card/question.ts";
import { BoxError, BoxReadOnly, TransitionRejected } from "../errors.ts";
import { auditCommitted, auditRecovered } from "./audit.ts";
import type { Core } from "./core.ts";
import { announceTransitioned } from "./events.ts";
import { rememberAnswers } from "./similar.ts";
import { forgetAskAdvice } from "./stats/ask-advice-store.ts";
import { anyWriteInFlight, type LoadedQuestion, loadQuestion, writeInFlight } from "./store.ts";

export interface TransitionResult<T> {
  commit: string;
  value: T;
}

export type Plan<T> = (current: LoadedQuestion) => { plan: CommitPlan; value: T };

/** Every write takes a question lock first: on a read-only box it is refused here, in words. */
export function refuseOnReadOnly(core: Core): void {
  if (core.ledger.readOnly) throw new BoxReadOnly(core.box.paths.root);
}

/** Runs `fn` holding the question's locks, after finishing any write a dead process left. */
export async function withQuestionLock<T>(
  core: Core,
  id: string,
  fn: () => Promise<T>,
): Promise<T> {
  checkId(id);
  refuseOnReadOnly(core);
  return afterRecovery(core, id, fn);
}

/**
 * As withQuestionLock, for a writer that refused a read-only box without opening the ledger
 * and opens it itself before its commit (ask, while git runs: refuseOnReadOnly there).
 */
export async function withQuestionLockLedgerLater<T>(
  core: Core,
  id: string,
  fn: () => Promise<T>,
): Promise<T> {
  checkId(id);
  return afterRecovery(core, id, fn);
}

/**
 * The committed card, read under the question's lock after any in-flight write finished. A
 * read, not a write: it does not open the ledger to ask whether the box is read-only (`wait`
 * and `show` read one card and never need SQLite); only a lock the box refuses asks it, and a
 * read-only box is then refused in words as a write is.
 */
export async function readCommitted(
  core: Core,
  id: string,
  seen?: LoadedQuestion,
): Promise<LoadedQuestion> {
  checkId(id);
  try {
    return await afterRecovery(core, id, async () => loadQuestion(core, id, seen));
  } catch (error) {
    if (!REFUSED_WRITES.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
    // A box that refuses the lock is one nobody can write through here either: with no write
    // of this question left half done (no journal), the card on disk is its committed state.
    if (!writeInFlight(core, id)) return loadQuestion(core, id, seen);
    refuseOnReadOnly(core);
    throw error;
  }
}

/**
 * The question as committed, for a reader that reports it: `seen` (or the card read now), and
 * only when a write of it is in flight once it was read, read again under the question's lock
 * after that write finished or was undone. The journal is looked for after the card is read: a
 * writer journals before its first write and drops the journal after its commit, so a card
 * read with no journal after it is committed.
 */
export async function loadCommitted(
  core: Core,
  id: string,
  seen?: LoadedQuestion,
): Promise<LoadedQuestion> {
  const loaded = seen ?? loadQuestion(core, id);
  if (!writeInFlight(core, id)) return loaded;
  return readCommitted(core, id, loaded);
}

const REFUSED_WRITES = new Set(["EROFS", "EACCES", "EPERM"]);

function afterRecovery<T>(core: Core, id: string, fn: () => Promise<T>): Promise<T> {
  return withFileLock(core.box.paths.locksDir, `q-${id}`, core.box.locks, async () => {
    await recover(
      core.box,
      id,
      all(auditRecovered(core), owed(core), rememberAnswers(core), forgetAskAdvice(core)),
    );
    return fn();
  });
}

/**
 * Finishes the writes of processes that died midway (a journal left behind), so that a card a
 * dead writer half-changed on disk is not taken for its committed state. A live writer's
 * journal is waited for, as its lock is.
 */
export async function settleInterruptedWrites(core: Core): Promise<void> {
  for (const key of pendingJournals(core.box)) {
    if (isValidId(key)) await withQuestionLock(core, key, async () => undefined);
  }
}

/** As settleBeforeListing, for one question: before reading its card or its job. */
export async function settleQuestion(core: Core, id: string): Promise<void> {
  if (!writeInFlight(core, id)) return;
  try {
    await readCommitted(core, id);
  } catch (error) {
    if (!(error instanceof BoxReadOnly)) throw error;
  }
}

/**
 * Before listing questions or jobs: the writes left half done are finished or undone first, so
 * an answer about to be undone is never listed as answered nor its job offered. Only when a
 * journal exists; on a read-only box nobody can finish them, and the disk is all there is.
 */
export async function settleBeforeListing(core: Core): Promise<void> {
  if (!anyWriteInFlight(core)) return;
  try {
    await settleInterruptedWrites(core);
  } catch (error) {
    if (!(error instanceof BoxReadOnly)) throw error;
  }
}

export async function withQuestionTransition<T>(
  core: Core,
  id: string,
  action: string,
  allowed: readonly Status[],
  planner: Plan<T>,
): Promise<TransitionResult<T>> {
  return withQuestionLock(core, id, async () => {
    const current = loadQuestion(core, id);
    if (!allowed.includes(current.card.status)) {
      throw new TransitionRejected(id, action, current.card.status, describeOutcome(current.card));
    }
    const { plan, value } = planner(current);
    const status = checkWrittenCard(current, plan);
    const commit = await applyAndCommit(
      core.box,
      id,
      plan,
      all(auditCommitted(core), owed(core), rememberAnswers(core), forgetAskAdvice(core)),
    );
    announceTransitioned({ root: core.box.paths.root, id, status, commit });
    return { commit, value };
  });
}

/** What the composition root said a commit owes (core.owe), or nothing. */
function owed(core: Core): Committed {
  return core.owe?.(core) ?? (() => undefined);
}

/** After a commit: its audit line, what it owes the answer webhooks, what the memory learns. */
function all(...steps: Committed[]): Committed {
  return (commit, record) => {
    for (const step of steps) step(commit, record);
  };
}

/** What happened to a question that is no longer pending, in a few words. */
export function describeOutcome(card: Question): string {
  switch (card.status) {
    case "answered":
      return `answered "${card.answer?.text ?? ""}" via ${card["answered-via"]} at ${card["answered-at"]}`;
    case "dismissed":
      return `dismissed at ${card["dismissed-at"]}`;
    case "expired":
      return `expired at ${card["expired-at"]}`;
    case "withdrawn":
      return `withdrawn by the asker at ${card["withdrawn-at"]}${card["withdrawn-reason"] ? `: "${card["withdrawn-reason"]}"` : ""}`;
    case "pending":
      return "";
  }
}

/** The card a plan writes must load again: a transition never commits a card it could not read. */
function checkWrittenCard(current: LoadedQuestion, plan: CommitPlan): Status {
  const write = plan.writes.find((w) => w.rel === current.rel);
  if (!write) return current.card.status;
  const parsed = parseQuestion(write.content);
  if (!parsed.ok) {
    throw new BoxError(
      `the rewritten card of "${current.id}" would not load (${parsed.reason}); nothing was written`,
    );
  }
  return parsed.card.status;
}
