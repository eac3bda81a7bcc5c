// `request_permission`: a coding agent's permission-prompt tool. The tool call becomes an
// irreversible confirm question marked as a permission (the same request while one is open
// reuses it, looked for and filed under the ask core's lock, so calls made at once file one;
// only a question this path filed for that request counts, never a look-alike), the call waits
// for the owner, and answers with the text the agent's permission prompt expects. The question
// expires when the call would have stopped waiting, and an answer writes no follow-up job: the
// decision goes to the agent. Called as a task (task-tool.ts), it answers at once with a task
// that completes with that text.

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { requestOf } from "../card/agent-request.ts";
import { formatDuration } from "../card/duration.ts";
import { askPermission } from "../questions/ask-permission.ts";
import type { QuestionOutcome } from "../questions/outcome.ts";
import { waitSeconds } from "./ask-tool.ts";
import { type McpDeps, tellChange } from "./deps.ts";
import { type PermissionRequest, permissionCard, permissionDecision } from "./permission.ts";
import type { QuestionTaskStore } from "./task-store.ts";
import { type FiledQuestion, questionTaskHandler } from "./task-tool.ts";
import { SHORT_TOOL_WAIT_SECONDS } from "./waiting.ts";

const DESCRIPTION = `Ask the owner whether a tool call may run (a coding agent's permission prompt). Files a yes/no question showing the tool and its input and waits for the owner. Returns JSON text: {"behavior":"allow","updatedInput":...} only after the owner said yes; otherwise {"behavior":"deny","message":...}. A deny whose message says nobody has decided yet is not a refusal: the question stays open; read it later with get_answer. Silence is never consent.`;

/** The least time a permission question stays open: the default hook timeout of the agents. */
const LEAST_OPEN_SECONDS = 600;

/** request_permission's result: the decision the agent's permission prompt reads, as text. */
export function permissionResult(outcome: QuestionOutcome, basis: unknown): CallToolResult {
  const decision = permissionDecision(basis as PermissionRequest, outcome);
  return { content: [{ type: "text", text: JSON.stringify(decision) }] };
}

type PermissionArgs = {
  tool_name: string;
  input: Record<string, unknown>;
  tool_use_id?: string | undefined;
  wait_seconds: number;
};

async function filePermission(
  deps: McpDeps,
  args: PermissionArgs,
): Promise<FiledQuestion<PermissionRequest>> {
  const request: PermissionRequest = {
    tool_name: args.tool_name,
    input: args.input,
    tool_use_id: args.tool_use_id,
  };
  const open = Math.max(LEAST_OPEN_SECONDS, args.wait_seconds);
  const card = { ...permissionCard(request), "expires-after": formatDuration(open * 1000) };
  const key = { agent: "mcp", tool: args.tool_name, input: args.input };
  const asked = await askPermission(deps.core, card, key, "mcp", { whole: requestOf(args.input) });
  if (!asked.deduplicated) await tellChange(deps, { id: asked.id, action: "asked" });
  return { id: asked.id, basis: request };
}

export function registerPermissionTool(
  server: McpServer,
  deps: McpDeps,
  tasks: QuestionTaskStore,
): void {
  server.experimental.tasks.registerToolTask(
    "request_permission",
    {
      title: "Ask the owner for permission",
      description: DESCRIPTION,
      inputSchema: {
        tool_name: z.string().min(1).describe("The tool that wants to run."),
        input: z.record(z.unknown()).describe("The input it would run with."),
        tool_use_id: z.string().optional().describe("The agent's id of this tool call."),
        wait_seconds: waitSeconds(SHORT_TOOL_WAIT_SECONDS),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
      execution: { taskSupport: "optional" },
    },
    questionTaskHandler(deps, tasks, {
      tool: "request_permission",
      file: (args: PermissionArgs) => filePermission(deps, args),
      waitSeconds: (args: PermissionArgs) => args.wait_seconds,
    }),
  );
}
