// Which questions the permission path filed, and for which request: a retried permission
// request waits on the question filed for it, never on a question that only looks the same
// (an asker can word a question like a permission prompt; only this row and the card's
// `kind: permission`, which no asker can set, together say it is one).

import type { Db } from "./ledger.ts";

export interface PermissionRequestRow {
  questionId: string;
  agent: string;
  sessionId: string | undefined;
  requestKey: string;
  /** What it asks (agent, tool, input), whatever its session or call. */
  inputKey: string;
}

export class PermissionRequests {
  constructor(private readonly db: Db) {}

  record(row: PermissionRequestRow, at: string): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO permission_requests (question_id, agent, session_id, request_key, input_key, filed_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(row.questionId, row.agent, row.sessionId ?? null, row.requestKey, row.inputKey, at);
  }

  /** What the question was filed to ask, when the permission path filed it (with this record). */
  inputKeyOf(questionId: string): string | undefined {
    const row = this.db
      .prepare("SELECT input_key AS inputKey FROM permission_requests WHERE question_id = ?")
      .get(questionId) as { inputKey: string | null } | undefined;
    return row?.inputKey ?? undefined;
  }

  /** True when the permission path filed this question for exactly this request. */
  filedFor(questionId: string, requestKey: string): boolean {
    return (
      this.db
        .prepare("SELECT 1 FROM permission_requests WHERE question_id = ? AND request_key = ?")
        .get(questionId, requestKey) !== undefined
    );
  }
}
