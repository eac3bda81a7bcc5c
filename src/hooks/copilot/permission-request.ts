// GitHub Copilot CLI's permissionRequest hook input, read into the neutral request of
// src/hooks/agent-input.ts. Copilot's hooks reference (docs.github.com/en/copilot/reference/
// hooks-reference; github/docs content/copilot/reference/hooks-reference.md) documents this
// event's matcher (on `toolName`) and its output, but publishes no input payload of its own; it
// documents the tool events' payloads in two formats, chosen by how the event is named in the
// hook file, and this reads both:
// - `permissionRequest` (camelCase, what `qbridge hook install --copilot` writes): sessionId,
//   timestamp (ms), cwd, toolName, toolArgs (the arguments, as a JSON text or an object);
// - `PermissionRequest` (VS Code compatible): hook_event_name, session_id, timestamp (ISO),
//   cwd, tool_name, tool_input.
// Pure: parsing only. An input that fits neither is an InvalidInput naming what is wrong (the
// hook then fails and Copilot asks at its own prompt).

import { z } from "zod";
import { describeIssues } from "../../card/question.ts";
import { InvalidInput } from "../../errors.ts";
import type { PermissionAsk } from "../agent-input.ts";

const CamelInput = z
  .object({
    sessionId: z.string().min(1, "the session id is missing"),
    cwd: z.string().min(1, "the working directory is missing"),
    toolName: z.string().min(1, "the tool's name is missing"),
    toolArgs: z.unknown(),
  })
  .passthrough();

const VsCodeInput = z
  .object({
    hook_event_name: z.literal("PermissionRequest"),
    session_id: z.string().min(1, "the session id is missing"),
    cwd: z.string().min(1, "the working directory is missing"),
    tool_name: z.string().min(1, "the tool's name is missing"),
    tool_input: z.unknown(),
  })
  .passthrough();

/**
 * The neutral request (agent-input.ts's PermissionAsk) with `agent: "copilot"`, which the
 * integration adds to AGENTS, and the format the input came in.
 */
export interface CopilotPermissionAsk extends Omit<PermissionAsk, "agent"> {
  agent: "copilot";
  format: "camelCase" | "vscode";
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The tool's arguments as an object: Copilot's docs give them as a JSON text or a value. */
function argumentsOf(value: unknown): Record<string, unknown> {
  const parsed = typeof value === "string" ? (parsedJson(value) ?? value) : value;
  if (parsed === undefined || parsed === null || parsed === "") return {};
  if (typeof parsed === "object" && !Array.isArray(parsed)) {
    return parsed as Record<string, unknown>;
  }
  return { arguments: parsed };
}

function askOf(
  fields: { sessionId: string; cwd: string; tool: string; args: unknown },
  format: CopilotPermissionAsk["format"],
): CopilotPermissionAsk {
  const input = argumentsOf(fields.args);
  const description = input.description;
  return {
    agent: "copilot",
    sessionId: fields.sessionId,
    cwd: fields.cwd,
    tool: fields.tool,
    input,
    description: typeof description === "string" ? description : undefined,
    always: [],
    // No call id in this agent's input: each hook run is its own question.
    callId: undefined,
    format,
  };
}

export function parseCopilotPermission(text: string): CopilotPermissionAsk {
  const value = parsedJson(text);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InvalidInput(
      "the Copilot CLI permissionRequest hook input is not one JSON object: run this command as Copilot's hook, which writes one",
    );
  }
  if ("hook_event_name" in value) {
    const result = VsCodeInput.safeParse(value);
    if (!result.success) {
      throw new InvalidInput(
        `the Copilot CLI PermissionRequest hook input is not valid: ${describeIssues(result.error)}`,
      );
    }
    const raw = result.data;
    const fields = { sessionId: raw.session_id, cwd: raw.cwd, tool: raw.tool_name };
    return askOf({ ...fields, args: raw.tool_input }, "vscode");
  }
  const result = CamelInput.safeParse(value);
  if (!result.success) {
    throw new InvalidInput(
      `the Copilot CLI permissionRequest hook input is not valid: ${describeIssues(result.error)}`,
    );
  }
  const raw = result.data;
  const fields = { sessionId: raw.sessionId, cwd: raw.cwd, tool: raw.toolName };
  return askOf({ ...fields, args: raw.toolArgs }, "camelCase");
}
