// What a coding agent writes on a hook's standard input, per agent, as its documentation
// gives it (the fixtures in test/hooks/fixtures/ name the pages), read into one request.
// - Claude Code, PermissionRequest (code.claude.com/docs/en/hooks): session_id,
//   transcript_path, cwd, permission_mode, hook_event_name, tool_name, tool_input, and
//   permission_suggestions (the "always allow" rules its dialog would offer).
// - Codex, PermissionRequest (developers.openai.com/codex/hooks; openai/codex
//   codex-rs/hooks/schema/generated/permission-request.command.input.schema.json): the same
//   names plus turn_id and model, tool_name "Bash", tool_input {command, description?}.
// - Claude Code, Elicitation: mcp_server_name, message, mode (form|url), url,
//   elicitation_id, requested_schema.
// Pure: parsing only. A input that fits none is an InvalidInput naming what is wrong. Of the
// permission suggestions only what "Always allow" may write is kept (always-allow.ts): the rest
// never reaches a card or a decision.

import { z } from "zod";
import { describeIssues } from "../card/question.ts";
import { InvalidInput } from "../errors.ts";
import { type AlwaysUpdate, alwaysUpdates } from "./always-allow.ts";

export const AGENTS = ["claude", "codex"] as const;
export type Agent = (typeof AGENTS)[number];

export const AGENT_NAMES: Record<Agent, string> = { claude: "Claude Code", codex: "Codex" };

const common = {
  session_id: z.string().min(1, "the agent's session id is missing"),
  transcript_path: z.string().nullable().optional(),
  cwd: z.string().min(1, "the working directory is missing"),
  permission_mode: z.string().optional(),
};

const ClaudePermissionInput = z
  .object({
    ...common,
    hook_event_name: z.literal("PermissionRequest"),
    tool_name: z.string().min(1),
    tool_input: z.record(z.unknown()),
    permission_suggestions: z.array(z.record(z.unknown())).optional(),
  })
  .passthrough();

const CodexPermissionInput = z
  .object({
    ...common,
    turn_id: z.string().optional(),
    model: z.string().optional(),
    hook_event_name: z.literal("PermissionRequest"),
    tool_name: z.string().min(1),
    tool_input: z.object({ command: z.string(), description: z.string().optional() }).passthrough(),
  })
  .passthrough();

const ElicitationInput = z
  .object({
    ...common,
    hook_event_name: z.literal("Elicitation"),
    mcp_server_name: z.string().min(1),
    message: z.string(),
    mode: z.enum(["form", "url"]).optional(),
    url: z.string().url().optional(),
    elicitation_id: z.string().optional(),
    requested_schema: z.record(z.unknown()).optional(),
  })
  .passthrough();

/** One permission request, whichever agent sent it. */
export interface PermissionAsk {
  agent: Agent;
  sessionId: string;
  cwd: string;
  tool: string;
  input: Record<string, unknown>;
  /** The agent's own words for what the tool call is for. */
  description: string | undefined;
  /** What "Always allow" writes: the agent's suggestions one tap may write (Claude Code only). */
  always: AlwaysUpdate[];
  /** The agent's id of this one tool call (Claude Code's tool_use_id), when it gives one. */
  callId: string | undefined;
}

export interface ElicitationAsk {
  sessionId: string;
  cwd: string;
  server: string;
  message: string;
  mode: "form" | "url";
  url: string | undefined;
  schema: Record<string, unknown> | undefined;
}

function jsonOf(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidInput(
      "the hook input on standard input is not JSON: run this command as the agent's hook, which writes one JSON object",
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InvalidInput("the hook input on standard input must be one JSON object");
  }
  return value as Record<string, unknown>;
}

function parsed<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new InvalidInput(`the ${what} hook input is not valid: ${describeIssues(result.error)}`);
  }
  return result.data;
}

/** Codex writes a turn id and the model with every tool hook; Claude Code writes neither. */
export function agentOf(raw: Record<string, unknown>): Agent {
  return "turn_id" in raw || "model" in raw ? "codex" : "claude";
}

/** The tool call's own id, as Claude Code writes it with its tool hooks (tool_use_id). */
function callIdOf(raw: Record<string, unknown>): string | undefined {
  const id = raw.tool_use_id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** The request; `home` is the person's home folder, which "Always allow" never opens. */
export function parsePermissionInput(text: string, home: string, agent?: Agent): PermissionAsk {
  const raw = jsonOf(text);
  const from = agent ?? agentOf(raw);
  if (from === "codex") {
    const input = parsed(CodexPermissionInput, raw, "Codex PermissionRequest");
    return {
      agent: from,
      sessionId: input.session_id,
      cwd: input.cwd,
      tool: input.tool_name,
      input: input.tool_input,
      description: input.tool_input.description,
      always: [],
      callId: callIdOf(raw),
    };
  }
  const input = parsed(ClaudePermissionInput, raw, "Claude Code PermissionRequest");
  const description = input.tool_input.description;
  return {
    agent: from,
    sessionId: input.session_id,
    cwd: input.cwd,
    tool: input.tool_name,
    input: input.tool_input,
    description: typeof description === "string" ? description : undefined,
    always: alwaysUpdates(input.permission_suggestions ?? [], input.cwd, home),
    callId: callIdOf(raw),
  };
}

export function parseElicitationInput(text: string): ElicitationAsk {
  const input = parsed(ElicitationInput, jsonOf(text), "Claude Code Elicitation");
  const mode = input.mode ?? (input.url && !input.requested_schema ? "url" : "form");
  if (mode === "url" && !input.url) {
    throw new InvalidInput("the Elicitation hook input is in url mode but names no url");
  }
  if (mode === "form" && !input.requested_schema) {
    throw new InvalidInput(
      "the Elicitation hook input is in form mode but has no requested_schema",
    );
  }
  return {
    sessionId: input.session_id,
    cwd: input.cwd,
    server: input.mcp_server_name,
    message: input.message,
    mode,
    url: input.url,
    schema: input.requested_schema,
  };
}
