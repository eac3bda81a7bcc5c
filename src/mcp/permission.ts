// The decisions of `request_permission`, pure: the permission question a coding agent's tool
// call becomes (built by the core, src/questions/permission/, as for every hook: a yes/no, as
// MCP takes nothing more), and the allow/deny a question's outcome becomes. Only a recorded
// "yes" allows. No answer yet is a deny that says plainly it is not a refusal and which
// question stays open.

import type { QuestionOutcome } from "../questions/outcome.ts";
import { permissionCard as questionCard } from "../questions/permission/card.ts";
import { permissionChoice } from "../questions/permission/decision.ts";
import { YES_OR_NO } from "../questions/permission/request.ts";

export interface PermissionRequest {
  tool_name: string;
  input: Record<string, unknown>;
  tool_use_id?: string | undefined;
  asked_by?: string | undefined;
}

export type PermissionDecision =
  | { behavior: "allow"; updatedInput: Record<string, unknown> }
  | { behavior: "deny"; message: string };

/**
 * The card a permission request files: the core's permission question (src/questions/
 * permission/card.ts) with what MCP takes, yes or no.
 */
export function permissionCard(request: PermissionRequest): Record<string, unknown> {
  const asked = {
    asker: "A coding agent",
    askedBy: request.asked_by ?? "coding agent (request_permission)",
    tool: request.tool_name,
    input: request.input,
    cwd: undefined,
    description: undefined,
  };
  return questionCard(asked, YES_OR_NO);
}

/** What the agent is told, from the question's outcome now. */
export function permissionDecision(
  request: PermissionRequest,
  outcome: QuestionOutcome,
): PermissionDecision {
  const tool = request.tool_name;
  const id = outcome.id;
  switch (outcome.status) {
    case "answered": {
      const choice = permissionChoice(outcome);
      if (choice?.kind === "once") return { behavior: "allow", updatedInput: request.input };
      const note = choice && "note" in choice ? choice.note : undefined;
      return {
        behavior: "deny",
        message: `The owner said no to ${tool} (question ${id})${note ? `: "${note}"` : ", without a note"}. Do not run it; take their answer into account.`,
      };
    }
    case "pending":
      return {
        behavior: "deny",
        message: `Nobody has decided yet. This is NOT a refusal: the owner has not answered question ${id} so far, and it stays open. Do not run ${tool} now; do other work and call get_answer with id "${id}" later, which shows the owner's decision. Requesting this permission again with the same input waits on this question only while it is open; once the owner has decided, a new request files a new question.`,
      };
    case "dismissed":
      return {
        behavior: "deny",
        message: `The owner set question ${id} aside without deciding: there is no yes. Do not run ${tool}; ask differently if it still matters.`,
      };
    case "expired":
      return {
        behavior: "deny",
        message: `Question ${id} expired with nobody deciding: there is no yes. Do not run ${tool}.`,
      };
    case "withdrawn":
      return {
        behavior: "deny",
        message: `Question ${id} was withdrawn before anyone decided: there is no yes. Do not run ${tool}.`,
      };
  }
}
