// The audit trail of the ledger, as the transitions write it. The audit is a record, not the
// truth: the commit holds every answer, and a ledger that fails to write never undoes one.
// A transition's "applied" line is written after its commit and before its journal is
// dropped, so a writer killed between the two has its line written by whoever finishes its
// journal, once.

import type { Committed } from "../box/commit.ts";
import { QbridgeError } from "../errors.ts";
import { type AuditEntry, LOST_AFTER_COMMIT } from "../ledger/ledger.ts";
import type { Core } from "./core.ts";

/** What a lost audit line leaves true when nothing says more: only the record is missing. */
const ONLY_THE_LINE = "only that record is missing";

/**
 * Writes an audit line; a ledger that cannot write loses the line (logged, with `truth`: what
 * stays true without it) and nothing else.
 */
export function safeAudit(core: Core, entry: AuditEntry, truth = ONLY_THE_LINE): void {
  try {
    core.ledger.audit(entry);
  } catch (error) {
    // A missing audit line costs nothing else, but it is said, so a failing ledger is noticed.
    core.ledger.reportLost(
      `the audit line of "${entry.action}" on ${entry.questionId ?? "the box"}`,
      error,
      truth,
    );
  }
}

/** What a lost audit line of a refusal leaves true: a transition that threw committed nothing. */
export const REFUSED_TRUTH =
  "it was refused and nothing was committed, only the ledger's record of the refusal is missing";

/**
 * A transition that threw: its audit line names the refusal (our typed errors by name, anything
 * else as "error") and its words; the caller rethrows. Nothing was committed.
 */
export function auditRefused(
  core: Core,
  entry: Omit<AuditEntry, "outcome" | "detail">,
  error: unknown,
): void {
  safeAudit(
    core,
    {
      ...entry,
      outcome: error instanceof QbridgeError ? error.name : "error",
      detail: error instanceof Error ? error.message : String(error),
    },
    REFUSED_TRUTH,
  );
}

const commitDetail = (commit: string) => `commit ${commit.slice(0, 12)}`;

/** After a transition's commit: its audit line, naming the commit. */
export function auditCommitted(core: Core): Committed {
  return (commit, record) => {
    safeAudit(
      core,
      { ...(record as unknown as AuditEntry), detail: commitDetail(commit) },
      LOST_AFTER_COMMIT,
    );
  };
}

/**
 * For a journal whose writer died after its commit: the audit line it may not have written,
 * unless a line for that commit is there already (it died after writing it).
 */
export function auditRecovered(core: Core): Committed {
  return (commit, record) => {
    const entry = record as unknown as AuditEntry;
    let written = false;
    try {
      written = core.ledger
        .auditFor(entry.questionId)
        .some(
          (row) =>
            row.action === entry.action &&
            row.outcome === entry.outcome &&
            row.detail?.startsWith("commit ") === true &&
            commit.startsWith(row.detail.slice("commit ".length)),
        );
    } catch {
      // An unreadable ledger: write the line; at worst it is there twice.
    }
    if (!written) safeAudit(core, { ...entry, detail: commitDetail(commit) }, LOST_AFTER_COMMIT);
  };
}
