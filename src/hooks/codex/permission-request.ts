// Codex's PermissionRequest hook input as Codex sends it now, read into the neutral request of
// src/hooks/agent-input.ts. The schema Codex ships (permission-request.command.input, embedded
// in the @openai/codex 0.169.0 binary; openai/codex PR #18385) requires session_id, turn_id,
// transcript_path, cwd, hook_event_name, model, permission_mode, tool_name (any string) and
// tool_input (any JSON value), and allows agent_id and agent_type inside a subagent:
// - Bash: tool_input {command, description?};
// - apply_patch: tool_input {command: the patch text} (PR #18391);
// - an MCP tool: tool_name mcp__<server>__<tool>, tool_input the tool's own arguments.
// Pure: parsing only. An input that does not fit is an InvalidInput naming what is wrong.

import { z } from "zod";
import { describeIssues } from "../../card/question.ts";
import { InvalidInput } from "../../errors.ts";
import type { PermissionAsk } from "../agent-input.ts";

const CodexPermissionInput = z
  .object({
    session_id: z.string().min(1, "the agent's session id is missing"),
    turn_id: z.string().min(1, "the turn id is missing"),
    transcript_path: z.string().nullable(),
    cwd: z.string().min(1, "the working directory is missing"),
    hook_event_name: z.literal("PermissionRequest"),
    model: z.string(),
    permission_mode: z.string(),
    tool_name: z.string().min(1, "the tool's name is missing"),
    tool_input: z.unknown(),
    agent_id: z.string().optional(),
    agent_type: z.string().optional(),
  })
  .passthrough();

/** The neutral request, plus what only Codex says: the turn and the subagent, if any. */
export interface CodexPermissionAsk extends PermissionAsk {
  agent: "codex";
  turnId: string;
  subagent: { id: string; type: string | undefined } | undefined;
}

/** A tool's input as an object: Codex allows any JSON value; a non-object is kept under `value`. */
function inputObject(value: unknown): Record<string, unknown> {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    return value as Record<string, unknown>;
  }
  return value === undefined || value === null ? {} : { value };
}

function jsonObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidInput(
      "the Codex PermissionRequest hook input is not JSON: run this command as Codex's hook, which writes one JSON object",
    );
  }
}

export function parseCodexPermission(text: string): CodexPermissionAsk {
  const result = CodexPermissionInput.safeParse(jsonObject(text));
  if (!result.success) {
    throw new InvalidInput(
      `the Codex PermissionRequest hook input is not valid: ${describeIssues(result.error)}`,
    );
  }
  const raw = result.data;
  const input = inputObject(raw.tool_input);
  const description = input.description;
  return {
    agent: "codex",
    sessionId: raw.session_id,
    cwd: raw.cwd,
    tool: raw.tool_name,
    input,
    description: typeof description === "string" ? description : undefined,
    always: [],
    // No call id in this agent's input: each hook run is its own question.
    callId: undefined,
    turnId: raw.turn_id,
    subagent: raw.agent_id ? { id: raw.agent_id, type: raw.agent_type } : undefined,
  };
}
