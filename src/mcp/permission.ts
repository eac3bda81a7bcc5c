// The decisions of `request_permission`, pure: the confirm question a coding agent's tool call
// becomes, and the allow/deny a question's outcome becomes. Only a recorded "yes" allows.
// No answer yet is a deny that says plainly it is not a refusal and which question stays open.

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

const SUMMARY_CHARS = 300;
/** Room for the input in the memo (the card allows 20,000 characters). */
const INPUT_CHARS = 18_000;

function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function shortened(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The one line that names what the tool will do: a command, a path, a URL, or the input. */
export function inputSummary(input: Record<string, unknown>): string {
  for (const key of ["command", "file_path", "path", "url", "query"]) {
    const value = input[key];
    if (typeof value === "string" && value.trim() !== "")
      return shortened(flat(value), SUMMARY_CHARS);
  }
  return shortened(flat(JSON.stringify(input)), SUMMARY_CHARS);
}

/** The card a permission request files: an irreversible confirm showing the tool and its input. */
export function permissionCard(request: PermissionRequest): Record<string, unknown> {
  const { tool_name: tool, input } = request;
  const full = JSON.stringify(input, null, 2);
  const shown =
    full.length <= INPUT_CHARS
      ? full
      : `${full.slice(0, INPUT_CHARS)}\n… (cut here: the input is ${full.length} characters in all)`;
  return {
    prompt: shortened(`Allow ${flat(tool)}: ${inputSummary(input)}?`, 2_000),
    memo: `A coding agent wants to use the tool ${tool} and waits for your decision. Nothing runs unless you say yes.\n\nThe input it would run with:\n${shown}`,
    input: { type: "confirm" },
    directive: `Nothing to do on the box: the agent reads this decision and runs ${tool} only on a yes.`,
    "while-waiting": `The agent does not run ${tool}.`,
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
