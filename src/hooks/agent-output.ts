// What a hook prints on standard output, in the shape each agent documents.
// - Claude Code, PermissionRequest: {"hookSpecificOutput":{"hookEventName":"PermissionRequest",
//   "decision":{"behavior":"allow","updatedInput"?,"updatedPermissions"?}|{"behavior":"deny",
//   "message"}}}.
// - Codex, PermissionRequest: the same envelope with behavior and message only. Codex fails
//   closed on updatedInput, updatedPermissions and interrupt (codex-rs/hooks/src/engine/
//   output_parser.rs), so they are never written for it, whatever the decision carries.
// - Claude Code, Elicitation: {"hookSpecificOutput":{"hookEventName":"Elicitation","action":
//   "accept"|"decline"|"cancel","content"?}}.
// Pure. A hook that has no decision prints nothing: the agent then asks at its own screen.

import type { Agent } from "./agent-input.ts";

export type HookDecision =
  | {
      behavior: "allow";
      updatedInput?: Record<string, unknown> | undefined;
      updatedPermissions?: Record<string, unknown>[] | undefined;
    }
  | { behavior: "deny"; message: string };

export function permissionOutput(agent: Agent, decision: HookDecision): Record<string, unknown> {
  const wire: Record<string, unknown> = { behavior: decision.behavior };
  if (decision.behavior === "deny") wire.message = decision.message;
  else if (agent === "claude") {
    if (decision.updatedInput) wire.updatedInput = decision.updatedInput;
    if (decision.updatedPermissions?.length) wire.updatedPermissions = decision.updatedPermissions;
  }
  return { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: wire } };
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
