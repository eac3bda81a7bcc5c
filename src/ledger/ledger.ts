// The ledger: what the surfaces did, in SQLite under <box>/.qbridge/. Never the source of
// truth for a question's status: losing it costs a duplicate nudge or stale buttons, never an
// answer. Opening the file (and what happens when it cannot be opened) is open.ts.

import {
  checkDb,
  checkFile,
  type Db,
  type LedgerCheck,
  type OpenLedgerOptions,
  openLedgerFile,
} from "./open.ts";

export type { Db } from "./open.ts";

export interface AuditEntry {
  at: string;
  questionId?: string | undefined;
  surface: string;
  actor?: string | undefined;
  action: string;
  verbatim?: string | undefined;
  resolvedTo?: string | undefined;
  outcome: string;
  detail?: string | undefined;
}

export interface AuditRow extends AuditEntry {
  seq: number;
}

/** Where the ledger reports a write it lost (an audit line): a log line, never a silence. */
export type LedgerFaultLog = (fields: { err: unknown }, message: string) => void;

/** Outside `serve` (which logs through its logger), a lost write is one line on stderr. */
const stderrFaultLog: LedgerFaultLog = ({ err }, message) => {
  process.stderr.write(
    `qbridge: warning: ${message} (${(err as Error)?.message ?? String(err)})\n`,
  );
};

/** What a lost write after a commit leaves true. */
export const LOST_AFTER_COMMIT =
  "the box's commit holds the change, only the ledger's record of it is missing";

/** A store over the ledger's tables: a class built from the database handle. */
export type StoreClass<T> = new (db: Db) => T;

export class Ledger {
  readonly db: Db;
  /** The stores made so far, one per class (`store`). */
  private readonly stores = new Map<StoreClass<unknown>, unknown>();
  /** Set by the composition root to its logger; stderr by default. */
  faultLog: LedgerFaultLog = stderrFaultLog;
  /** Set when the file could not be opened and was moved aside to this path. */
  readonly setAside: string | undefined;
  /** What SQLite's check found in the file set aside, when it opened but failed the check. */
  readonly damage: string | undefined;
  /**
   * True on a read-only box: the ledger is a copy in memory (of the file when it can be read),
   * so reading commands work; what is written to it is gone when the process ends.
   */
  readonly readOnly: boolean;

  constructor(
    readonly path: string,
    options: OpenLedgerOptions = {},
  ) {
    const opened = openLedgerFile(path, options);
    this.db = opened.db;
    this.setAside = opened.setAside;
    this.damage = opened.damage;
    this.readOnly = opened.readOnly;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /**
   * The one store of this class over this ledger: the one place a store is built from the
   * database handle, so no caller passes the handle around.
   */
  store<T>(Store: StoreClass<T>): T {
    let made = this.stores.get(Store) as T | undefined;
    if (made === undefined) {
      made = new Store(this.db);
      this.stores.set(Store, made);
    }
    return made;
  }

  /**
   * Says that a ledger write was lost and what that leaves true (`truth`: by default, that the
   * commit holds the change the write was the record of). The caller goes on.
   */
  reportLost(what: string, error: unknown, truth: string = LOST_AFTER_COMMIT): void {
    this.faultLog({ err: error }, `the ledger lost ${what}; ${truth}`);
  }

  audit(entry: AuditEntry): void {
    this.db
      .prepare(
        `INSERT INTO audit (at, question_id, surface, actor, action, verbatim, resolved_to, outcome, detail)
         VALUES (@at, @questionId, @surface, @actor, @action, @verbatim, @resolvedTo, @outcome, @detail)`,
      )
      .run({
        questionId: null,
        actor: null,
        verbatim: null,
        resolvedTo: null,
        detail: null,
        ...entry,
      });
  }

  auditFor(questionId?: string): AuditRow[] {
    const rows = (
      questionId === undefined
        ? this.db.prepare("SELECT * FROM audit ORDER BY seq").all()
        : this.db.prepare("SELECT * FROM audit WHERE question_id = ? ORDER BY seq").all(questionId)
    ) as Record<string, unknown>[];
    return rows.map((row) => ({
      seq: row.seq as number,
      at: row.at as string,
      questionId: (row.question_id as string | null) ?? undefined,
      surface: row.surface as string,
      actor: (row.actor as string | null) ?? undefined,
      action: row.action as string,
      verbatim: (row.verbatim as string | null) ?? undefined,
      resolvedTo: (row.resolved_to as string | null) ?? undefined,
      outcome: row.outcome as string,
      detail: (row.detail as string | null) ?? undefined,
    }));
  }

  /**
   * Claims the nudge for a question; false when it was sent, or claimed by a sweep that may
   * still be delivering it. A claim older than `staleAfterMs` belongs to a sweep that died
   * before confirming, and is taken over: a duplicate nudge beats a lost one.
   */
  claimNudge(questionId: string, at: string, staleAfterMs = 15 * 60_000): boolean {
    const inserted = this.db
      .prepare(
        "INSERT OR IGNORE INTO nudges (question_id, nudged_at, state) VALUES (?, ?, 'claimed')",
      )
      .run(questionId, at);
    if (inserted.changes === 1) return true;
    const staleBefore = new Date(new Date(at).getTime() - staleAfterMs).toISOString();
    const taken = this.db
      .prepare(
        `UPDATE nudges SET nudged_at = ? WHERE question_id = ? AND state = 'claimed'
           AND julianday(nudged_at) <= julianday(?)`,
      )
      .run(at, questionId, staleBefore);
    return taken.changes === 1;
  }

  confirmNudge(questionId: string): void {
    this.db.prepare("UPDATE nudges SET state = 'sent' WHERE question_id = ?").run(questionId);
  }

  releaseNudge(questionId: string): void {
    this.db
      .prepare("DELETE FROM nudges WHERE question_id = ? AND state = 'claimed'")
      .run(questionId);
  }

  /** Forgets a sent nudge (Extend moved the halfway point ahead): the next one is due again. */
  forgetNudge(questionId: string): void {
    this.db.prepare("DELETE FROM nudges WHERE question_id = ? AND state = 'sent'").run(questionId);
  }

  nudgedAt(questionId: string): string | undefined {
    const row = this.db
      .prepare("SELECT nudged_at FROM nudges WHERE question_id = ?")
      .get(questionId) as { nudged_at: string } | undefined;
    return row?.nudged_at;
  }

  getMeta(key: string): string | undefined {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  deleteMeta(key: string): void {
    this.db.prepare("DELETE FROM meta WHERE key = ?").run(key);
  }

  setMeta(key: string, value: string): void {
    this.db
      .prepare(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      )
      .run(key, value);
  }

  /** SQLite's quick check: "ok", or what it found (reads every page, cheaper than integrity). */
  quickCheck(): string {
    return this.check("quick_check(5)");
  }

  /** SQLite's integrity check: "ok", or what it found. */
  integrity(): string {
    return this.check("integrity_check");
  }

  /** A check of the file as a fresh connection sees it (checkFile), never this connection's. */
  private check(check: LedgerCheck): string {
    // A read-only box's ledger is this copy in memory: the file is not what is read.
    return this.readOnly ? checkDb(this.db, check) : checkFile(this.path, check);
  }
}
