// A question tool that may run as a task: `ask_human` and `request_permission` (taskSupport
// "optional"). Both ways start alike, filing (or finding) the question through the core. A call
// the client made as a task answers at once with a task that waits on the question (the owner
// may take days; tasks/get and tasks/result follow it, across restarts). A call made without
// one waits up to its wait_seconds, with progress, and answers as it always did: the SDK runs it
// as a task in passing, which the store keeps in memory for that call only.

import type {
  CreateTaskRequestHandlerExtra,
  TaskRequestHandlerExtra,
} from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import type { CallToolResult, CreateTaskResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpDeps } from "./deps.ts";
import { guarded, toolError } from "./result.ts";
import {
  type QuestionTaskStore,
  TASK_POLL_MS,
  type TaskContext,
  type TaskTool,
} from "./task-store.ts";
import { waitReporting } from "./waiting.ts";

/** The question a call filed or found, and what its result is made of besides the outcome. */
export interface FiledQuestion<Basis> {
  id: string;
  basis: Basis;
}

export interface QuestionWork<Args, Basis> {
  tool: TaskTool;
  /** Files (or finds) the question; a refusal is the tool error to answer, nothing filed. */
  file(args: Args): Promise<FiledQuestion<Basis> | CallToolResult>;
  /** How long a call made without a task waits for the answer. */
  waitSeconds(args: Args): number;
}

function refused<Basis>(filed: FiledQuestion<Basis> | CallToolResult): filed is CallToolResult {
  return !("id" in filed && "basis" in filed);
}

async function startTask<Args, Basis>(
  deps: McpDeps,
  tasks: QuestionTaskStore,
  work: QuestionWork<Args, Basis>,
  args: Args,
  extra: CreateTaskRequestHandlerExtra,
): Promise<CreateTaskResult> {
  const filed = await work.file(args).catch((error: unknown) => toolError(deps, work.tool, error));
  const context: TaskContext = refused(filed)
    ? { tool: work.tool, refusal: filed }
    : { tool: work.tool, questionId: filed.id, basis: filed.basis };
  const task = await extra.taskStore.createTask({
    ttl: extra.taskRequestedTtl ?? null,
    pollInterval: TASK_POLL_MS,
    context,
  });
  if (!tasks.isCall(task.taskId)) return { task };
  const result = refused(filed)
    ? filed
    : await guarded(deps, work.tool, async () => {
        const outcome = await waitReporting(deps, filed.id, work.waitSeconds(args), extra);
        return tasks.resultOf(work.tool, outcome, filed.basis);
      });
  if (extra.signal.aborted) {
    tasks.dropCall(task.taskId);
    return { task };
  }
  return { task: tasks.finishCall(task.taskId, result) ?? task };
}

/** The SDK's task handler for a question tool. */
export function questionTaskHandler<Args, Basis>(
  deps: McpDeps,
  tasks: QuestionTaskStore,
  work: QuestionWork<Args, Basis>,
) {
  return {
    createTask: (args: Args, extra: CreateTaskRequestHandlerExtra) =>
      startTask(deps, tasks, work, args, extra),
    getTask: async (_args: Args, extra: TaskRequestHandlerExtra) => {
      const task = await tasks.getTask(extra.taskId);
      if (!task) throw new Error(`no task ${extra.taskId}`);
      return task;
    },
    getTaskResult: async (_args: Args, extra: TaskRequestHandlerExtra) =>
      (await tasks.getTaskResult(extra.taskId)) as CallToolResult,
  };
}
