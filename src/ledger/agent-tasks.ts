// The agent tasks table (migration 13): one row per task an MCP client asked for, naming the
// question it waits on. Rows are written once and dropped when their time to live is over;
// the task's status is never stored here (the card says it).

import type { Ledger } from "./ledger.ts";

export interface AgentTaskRow {
  taskId: string;
  /** The question the task waits on; none when the call was refused before filing one. */
  questionId: string | null;
  tool: string;
  /** JSON: what the tool's result is made of besides the question's outcome. */
  basis: string;
  createdAt: string;
  /** How long the task is kept from its creation, in ms; null: as long as the ledger. */
  ttlMs: number | null;
}

const COLUMNS =
  "task_id AS taskId, question_id AS questionId, tool, basis, created_at AS createdAt, ttl_ms AS ttlMs";

export function insertAgentTask(ledger: Ledger, row: AgentTaskRow): void {
  ledger.db
    .prepare(
      `INSERT INTO agent_tasks (task_id, question_id, tool, basis, created_at, ttl_ms)
       VALUES (@taskId, @questionId, @tool, @basis, @createdAt, @ttlMs)`,
    )
    .run(row);
}

export function agentTask(ledger: Ledger, taskId: string): AgentTaskRow | undefined {
  return ledger.db.prepare(`SELECT ${COLUMNS} FROM agent_tasks WHERE task_id = ?`).get(taskId) as
    | AgentTaskRow
    | undefined;
}

export function dropAgentTask(ledger: Ledger, taskId: string): void {
  ledger.db.prepare("DELETE FROM agent_tasks WHERE task_id = ?").run(taskId);
}
