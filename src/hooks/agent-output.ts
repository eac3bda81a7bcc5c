// What a hook prints on standard output. A permission decision is written by the asking
// agent's room (src/hooks/agents/), in the shape that agent documents; Claude Code's
// Elicitation answer is written here: {"hookSpecificOutput":{"hookEventName":"Elicitation",
// "action":"accept"|"decline"|"cancel","content"?}}. Pure. A hook that has no decision prints
// nothing: the agent then asks at its own screen.

import type { AgentDecision } from "./agent-decision.ts";
import { roomNamed } from "./agents/list.ts";

export type { HookDecision } from "./agent-decision.ts";

/** The decision in the named agent's shape; refuses what that agent cannot take. */
export function permissionOutput(agent: string, decision: AgentDecision): Record<string, unknown> {
  return roomNamed(agent).writePermission(decision);
}

export type ElicitationAction =
  | { action: "accept"; content?: Record<string, unknown> | undefined }
  | { action: "decline" }
  | { action: "cancel" };

export function elicitationOutput(result: ElicitationAction): Record<string, unknown> {
  const output: Record<string, unknown> = { hookEventName: "Elicitation", action: result.action };
  if (result.action === "accept" && result.content) output.content = result.content;
  return { hookSpecificOutput: output };
}
