// The decisions of `request_permission`, pure: the confirm question a coding agent's tool call
// becomes, and the allow/deny a question's outcome becomes. Only a recorded "yes" allows. The
// prompt holds the request whole or its head and tail (src/card/agent-request.ts), the card's
// `request` holds it whole, and the agent's text is shown with hidden characters spelled out.
// No answer yet is a deny that says plainly it is not a refusal and which question stays open.

import { headAndTail, REQUEST_MAX_CHARS, requestOf, requestPrompt } from "../card/agent-request.ts";
import { visibleLine, visibleLines } from "../card/agent-text.ts";
import { InvalidInput } from "../errors.ts";
import type { QuestionOutcome } from "../questions/outcome.ts";

export interface PermissionRequest {
  tool_name: string;
  input: Record<string, unknown>;
  tool_use_id?: string | undefined;
  asked_by?: string | undefined;
}

export type PermissionDecision =
  | { behavior: "allow"; updatedInput: Record<string, unknown> }
  | { behavior: "deny"; message: string };

/** Room for the input in the memo (the card allows 20,000 characters). */
const INPUT_CHARS = 18_000;

/**
 * The card a permission request files: an irreversible confirm showing the tool and its input.
 * Its whole request (the card's `request`, requestOf) is filed beside it.
 */
export function permissionCard(request: PermissionRequest): Record<string, unknown> {
  const { tool_name: tool, input } = request;
  const whole = requestOf(input);
  if (whole.length > REQUEST_MAX_CHARS) {
    throw new InvalidInput(
      `the input is ${whole.length} characters, more than a question can show whole (${REQUEST_MAX_CHARS}): ask at the computer`,
    );
  }
  const full = visibleLines(JSON.stringify(input, null, 2));
  const shown =
    full.length <= INPUT_CHARS
      ? full
      : `${headAndTail(full, INPUT_CHARS)}\n(The whole input is on the web page and in qbridge show.)`;
  const name = visibleLine(tool);
  return {
    prompt: requestPrompt(tool, input),
    memo: `A coding agent wants to use the tool ${name} and waits for your decision. Nothing runs unless you say yes.\n\nThe input it would run with:\n${shown}`,
    input: { type: "confirm" },
    directive: `Nothing to do on the box: the agent reads this decision and runs ${name} only on a yes.`,
    "while-waiting": `The agent does not run ${name}.`,
    irreversible: true,
    "asked-by": request.asked_by ?? "coding agent (request_permission)",
  };
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
      if (outcome.answer?.selected === "yes") {
        return { behavior: "allow", updatedInput: request.input };
      }
      const note = outcome.answer?.note?.trim();
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
