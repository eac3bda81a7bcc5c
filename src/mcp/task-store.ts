// The MCP SDK's TaskStore for question tools (the Tasks extension of the 2025-11-25 spec), kept
// in the box: a task an agent asked for is a ledger row naming its question, so tasks/get and
// tasks/result work across restarts of `serve`. Its status is the question's: `working` while
// pending, `completed` once answered, dismissed or expired, `cancelled` once withdrawn;
// cancelling a task withdraws its question through the core. Never stores a status or a result
// of its own for such a task: the card is the truth.
// A call made without a task (the SDK runs such a call of a task tool as a task in passing)
// gets a task kept in memory only, for the length of that one call.
// A task belongs to the session that made it (one store serves one MCP session: a stdio
// connection, one stateless HTTP request): tasks/list shows only that session's tasks, so no
// client learns another's task ids. The id, random and never listed elsewhere, is the task's
// handle: whoever holds it may follow and cancel it, also after a restart of the server.

import { randomUUID } from "node:crypto";
import type {
  CreateTaskOptions,
  TaskStore,
} from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import type { CallToolResult, Request, Result, Task } from "@modelcontextprotocol/sdk/types.js";
import { QuestionNotFound } from "../errors.ts";
import {
  type AgentTaskRow,
  agentTask,
  dropAgentTask,
  insertAgentTask,
} from "../ledger/agent-tasks.ts";
import { type QuestionOutcome, questionOutcome } from "../questions/outcome.ts";
import type { LoadedQuestion } from "../questions/store.ts";
import { waitForQuestion } from "../questions/waiter.ts";
import { withdrawQuestion } from "../questions/withdraw.ts";
import { type McpDeps, tellChange } from "./deps.ts";
import { errorResult } from "./result.ts";

/** The tools whose calls may become tasks. */
export type TaskTool = "ask_human" | "request_permission";

/** How a tool's result is made from its question's outcome and what its row keeps. */
export type TaskResults = Record<
  TaskTool,
  (outcome: QuestionOutcome, basis: unknown) => CallToolResult
>;

/** What a tool hands the store when it asks for a task (CreateTaskOptions' `context`). */
export type TaskContext =
  | { tool: TaskTool; questionId: string; basis: unknown }
  | { tool: TaskTool; refusal: CallToolResult };

/** How often a client is asked to poll: the owner answers in minutes, not milliseconds. */
export const TASK_POLL_MS = 5_000;
const PAGE = 50;

interface CallTask {
  task: Task;
  result?: Result;
}

function decidedAt(loaded: LoadedQuestion): string | undefined {
  const card = loaded.card as Record<string, unknown>;
  const at = card[`${loaded.card.status}-at`];
  return typeof at === "string" ? at : undefined;
}

export class QuestionTaskStore implements TaskStore {
  private readonly calls = new Map<string, CallTask>();
  /** The ledger tasks this session made, oldest first. */
  private readonly made: string[] = [];

  constructor(
    private readonly deps: McpDeps,
    private readonly results: TaskResults,
  ) {}

  /** The tool's result for this outcome, as a call without a task answers it too. */
  resultOf(tool: TaskTool, outcome: QuestionOutcome, basis: unknown): CallToolResult {
    return this.results[tool](outcome, basis);
  }

  /** True when the task stands for one call made without a task, not for one a client holds. */
  isCall(taskId: string): boolean {
    return this.calls.has(taskId);
  }

  /** The call's answer: its task completes, and tasks/result (the SDK's, at once) reads it. */
  finishCall(taskId: string, result: CallToolResult): Task | undefined {
    const call = this.calls.get(taskId);
    if (!call) return undefined;
    call.task = { ...call.task, status: "completed", lastUpdatedAt: this.now() };
    call.result = result;
    return call.task;
  }

  /** Forgets a call whose client went away: nobody reads its answer. */
  dropCall(taskId: string): void {
    this.calls.delete(taskId);
  }

  async createTask(options: CreateTaskOptions, _id: unknown, request: Request): Promise<Task> {
    const createdAt = this.now();
    // The client asked for a task when its call carries `task` (as the SDK's own tools/call
    // handler tells them apart).
    if (request.params?.task === undefined) {
      const task: Task = {
        taskId: `call-${randomUUID()}`,
        status: "working",
        ttl: null,
        createdAt,
        lastUpdatedAt: createdAt,
      };
      this.calls.set(task.taskId, { task });
      return task;
    }
    const context = options.context as TaskContext;
    const row: AgentTaskRow = {
      taskId: randomUUID(),
      questionId: "questionId" in context ? context.questionId : null,
      tool: context.tool,
      basis: JSON.stringify("questionId" in context ? context.basis : context.refusal),
      createdAt,
      ttlMs: options.ttl ?? null,
    };
    insertAgentTask(this.deps.core.ledger, row);
    this.made.push(row.taskId);
    return this.taskOf(row);
  }

  async getTask(taskId: string): Promise<Task | null> {
    const call = this.calls.get(taskId);
    if (call) return call.task;
    const row = this.row(taskId);
    return row ? this.taskOf(row) : null;
  }

  async getTaskResult(taskId: string): Promise<Result> {
    const call = this.calls.get(taskId);
    if (call?.result) {
      this.calls.delete(taskId);
      return call.result;
    }
    const row = this.row(taskId);
    if (!row) throw new Error(`no task ${taskId}: it ended, or its time to live is over`);
    const basis = JSON.parse(row.basis) as unknown;
    if (row.questionId === null) return basis as CallToolResult;
    const loaded = await this.question(row.questionId);
    if (!loaded) return errorResult(`question ${row.questionId} is no longer in the box`);
    const { deps } = this;
    const outcome = questionOutcome(loaded, {
      now: deps.core.box.clock.now(),
      link: deps.link,
      heldUntil: deps.heldUntil,
    });
    return this.resultOf(row.tool as TaskTool, outcome, basis);
  }

  /** A result is never stored for a task a client holds: its question's card is the result. */
  async storeTaskResult(taskId: string, status: "completed" | "failed", result: Result) {
    const call = this.calls.get(taskId);
    if (call) {
      call.task = { ...call.task, status, lastUpdatedAt: this.now() };
      call.result = result;
    }
  }

  /** Only a cancel changes anything: it withdraws the question, through the core. */
  async updateTaskStatus(taskId: string, status: Task["status"]): Promise<void> {
    const call = this.calls.get(taskId);
    if (call) {
      call.task = { ...call.task, status, lastUpdatedAt: this.now() };
      return;
    }
    const row = this.row(taskId);
    if (status !== "cancelled" || !row?.questionId) return;
    const id = row.questionId;
    await withdrawQuestion(
      this.deps.core,
      id,
      { via: "mcp" },
      { reason: "the agent cancelled the task that waited for the answer" },
    );
    await tellChange(this.deps, { id, action: "withdrawn" });
  }

  /** This session's tasks, newest first, a page at a time; another session's are never listed. */
  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const offset = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isInteger(offset) || offset < 0)
      throw new Error(`the cursor "${cursor}" is not one of tasks/list's`);
    const ids = [...this.made].reverse().slice(offset, offset + PAGE);
    const tasks: Task[] = [];
    for (const id of ids) {
      const row = this.row(id);
      if (row) tasks.push(await this.taskOf(row));
    }
    return ids.length === PAGE ? { tasks, nextCursor: String(offset + PAGE) } : { tasks };
  }

  private now(): string {
    return this.deps.core.box.clock.iso();
  }

  /** The row of a task whose time to live is not over; one that is over is dropped. */
  private row(taskId: string): AgentTaskRow | undefined {
    const row = agentTask(this.deps.core.ledger, taskId);
    if (!row || this.live(row)) return row;
    dropAgentTask(this.deps.core.ledger, taskId);
    return undefined;
  }

  private live(row: AgentTaskRow): boolean {
    if (row.ttlMs === null) return true;
    return Date.parse(row.createdAt) + row.ttlMs > this.deps.core.box.clock.now().getTime();
  }

  /** The question as committed (a decided card is confirmed under its lock), if it is there. */
  private async question(id: string): Promise<LoadedQuestion | undefined> {
    try {
      return await waitForQuestion(this.deps.core, id, 0);
    } catch (error) {
      if (error instanceof QuestionNotFound) return undefined;
      throw error;
    }
  }

  private async taskOf(row: AgentTaskRow): Promise<Task> {
    const base = {
      taskId: row.taskId,
      ttl: row.ttlMs,
      createdAt: row.createdAt,
      pollInterval: TASK_POLL_MS,
    };
    if (row.questionId === null) {
      const message = "the call was refused: nothing was filed (tasks/result says why)";
      return { ...base, status: "completed", lastUpdatedAt: row.createdAt, statusMessage: message };
    }
    const id = row.questionId;
    const loaded = await this.question(id);
    if (!loaded) {
      const message = `question ${id} is no longer in the box`;
      return { ...base, status: "failed", lastUpdatedAt: row.createdAt, statusMessage: message };
    }
    const status = loaded.card.status;
    const lastUpdatedAt = decidedAt(loaded) ?? row.createdAt;
    if (status === "pending") {
      const message = `waiting for the owner to answer question ${id}`;
      return { ...base, status: "working", lastUpdatedAt, statusMessage: message };
    }
    const message = `question ${id} was ${status}`;
    const done = status === "withdrawn" ? "cancelled" : "completed";
    return { ...base, status: done, lastUpdatedAt, statusMessage: message };
  }
}
