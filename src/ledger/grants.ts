// The grants "Allow for this session" leaves: one agent session may run one tool on one
// pattern without a question until the grant expires or is revoked. Each use is counted and
// audited. A grant is never widened: a new pattern is a new question and a new grant.

import type { Db, Ledger } from "./ledger.ts";

export interface Grant {
  id: string;
  agent: string;
  sessionId: string;
  tool: string;
  pattern: string;
  questionId: string | undefined;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | undefined;
  uses: number;
  lastUsedAt: string | undefined;
}

interface GrantRow {
  id: string;
  agent: string;
  session_id: string;
  tool: string;
  pattern: string;
  question_id: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  uses: number;
  last_used_at: string | null;
}

function toGrant(row: GrantRow): Grant {
  return {
    id: row.id,
    agent: row.agent,
    sessionId: row.session_id,
    tool: row.tool,
    pattern: row.pattern,
    questionId: row.question_id ?? undefined,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at ?? undefined,
    uses: row.uses,
    lastUsedAt: row.last_used_at ?? undefined,
  };
}

/** Whether a grant still lets requests through at `now` (ISO). */
export function grantLive(grant: Grant, now: string): boolean {
  return grant.revokedAt === undefined && Date.parse(grant.expiresAt) > Date.parse(now);
}

export class GrantStore {
  private readonly db: Db;

  constructor(private readonly ledger: Ledger) {
    this.db = ledger.db;
  }

  add(grant: Omit<Grant, "revokedAt" | "uses" | "lastUsedAt">): Grant {
    this.db
      .prepare(
        `INSERT INTO grants (id, agent, session_id, tool, pattern, question_id, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        grant.id,
        grant.agent,
        grant.sessionId,
        grant.tool,
        grant.pattern,
        grant.questionId ?? null,
        grant.createdAt,
        grant.expiresAt,
      );
    return { ...grant, revokedAt: undefined, uses: 0, lastUsedAt: undefined };
  }

  /** The live grants of one agent session for one tool, newest first. */
  liveFor(agent: string, sessionId: string, tool: string, now: string): Grant[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM grants WHERE agent = ? AND session_id = ? AND tool = ? AND revoked_at IS NULL
         ORDER BY created_at DESC, rowid DESC`,
      )
      .all(agent, sessionId, tool) as GrantRow[];
    return rows.map(toGrant).filter((grant) => grantLive(grant, now));
  }

  /** Every grant, newest first (the live ones and what became of the others). */
  all(): Grant[] {
    const rows = this.db
      .prepare("SELECT * FROM grants ORDER BY created_at DESC, rowid DESC")
      .all() as GrantRow[];
    return rows.map(toGrant);
  }

  get(id: string): Grant | undefined {
    const row = this.db.prepare("SELECT * FROM grants WHERE id = ?").get(id) as
      | GrantRow
      | undefined;
    return row ? toGrant(row) : undefined;
  }

  /** Counts one use and writes its audit line: what ran, in which session, under which grant. */
  recordUse(grant: Grant, at: string, what: string): void {
    this.db.transaction(() => {
      this.db
        .prepare("UPDATE grants SET uses = uses + 1, last_used_at = ? WHERE id = ?")
        .run(at, grant.id);
      this.ledger.audit({
        at,
        surface: "hook",
        actor: `${grant.agent}:${grant.sessionId}`,
        action: "grant-use",
        verbatim: what,
        resolvedTo: `${grant.tool} ${grant.pattern}`,
        outcome: "applied",
        detail: grant.id,
      });
    })();
  }

  /** Revokes a grant; false when there is none by that id or it was revoked already. */
  revoke(id: string, at: string, by: string): boolean {
    const changed = this.db
      .prepare("UPDATE grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
      .run(at, id).changes;
    if (changed === 1) {
      this.ledger.audit({
        at,
        surface: by,
        action: "grant-revoke",
        outcome: "applied",
        detail: id,
      });
    }
    return changed === 1;
  }
}
