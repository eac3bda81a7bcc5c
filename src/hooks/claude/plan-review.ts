// Claude Code's ExitPlanMode, as its PermissionRequest hook hands it over: `tool_input.plan`
// (Markdown, injected from the plan file), `planFilePath`, and the deprecated `allowedPrompts`
// (code.claude.com/docs/en/hooks, "ExitPlanMode"). The plan is a plan to read, and three
// decisions: Approve; Approve and accept edits for this session (a `setMode` update, offered
// only where the input's `permission_suggestions` offers exactly it); Keep planning (a deny
// whose message is the boxholder's note, so Claude revises; never an interrupt). Pure.

import { InvalidAnswer } from "../../errors.ts";
import type { HookDecision } from "../agent-output.ts";

/** The permission update that "accept edits for this session" applies (hooks reference). */
export const ACCEPT_EDITS_FOR_SESSION = {
  type: "setMode",
  mode: "acceptEdits",
  destination: "session",
} as const;

export const PLAN_CHOICES = {
  approve: "approve",
  acceptEdits: "approve-accept-edits",
  keepPlanning: "keep-planning",
} as const;
export type PlanChoice = (typeof PLAN_CHOICES)[keyof typeof PLAN_CHOICES];

export interface PlanRequest {
  /** The plan in Markdown; "" when Claude Code sends none (it then asks a plain yes/no). */
  plan: string;
  planFilePath: string | undefined;
  /** Whether the input offers switching this session to accept edits. */
  offersAcceptEdits: boolean;
  /** `tool_input` as it arrived; an approval echoes it unchanged. */
  input: Record<string, unknown>;
}

function offersAcceptEdits(suggestions: Record<string, unknown>[]): boolean {
  return suggestions.some(
    (s) =>
      s.type === ACCEPT_EDITS_FOR_SESSION.type &&
      s.mode === ACCEPT_EDITS_FOR_SESSION.mode &&
      s.destination === ACCEPT_EDITS_FOR_SESSION.destination,
  );
}

/** The plan request in an ExitPlanMode `tool_input` and the request's `permission_suggestions`. */
export function parsePlanRequest(
  toolInput: Record<string, unknown>,
  suggestions: Record<string, unknown>[],
): PlanRequest {
  const { plan, planFilePath } = toolInput;
  return {
    plan: typeof plan === "string" ? plan : "",
    planFilePath: typeof planFilePath === "string" ? planFilePath : undefined,
    offersAcceptEdits: offersAcceptEdits(suggestions),
    input: toolInput,
  };
}

/** The choices the card offers, in order; accept-edits only where the input offers it. */
export function planOptions(request: PlanRequest): { id: PlanChoice; label: string }[] {
  return [
    { id: PLAN_CHOICES.approve, label: "Approve" },
    ...(request.offersAcceptEdits
      ? [{ id: PLAN_CHOICES.acceptEdits, label: "Approve and accept edits for this session" }]
      : []),
    { id: PLAN_CHOICES.keepPlanning, label: "Keep planning" },
  ];
}

/** What Claude Code is told for a choice; a note explains "Keep planning" to Claude. */
export function planDecision(
  request: PlanRequest,
  choice: PlanChoice,
  note?: string | undefined,
): HookDecision {
  switch (choice) {
    case PLAN_CHOICES.approve:
      return { behavior: "allow", updatedInput: request.input };
    case PLAN_CHOICES.acceptEdits:
      if (!request.offersAcceptEdits) {
        throw new InvalidAnswer(
          choice,
          "Approve or Keep planning: this plan does not offer accept edits",
        );
      }
      return {
        behavior: "allow",
        updatedInput: request.input,
        updatedPermissions: [{ ...ACCEPT_EDITS_FOR_SESSION }],
      };
    case PLAN_CHOICES.keepPlanning: {
      const words = note?.trim();
      const message = words
        ? `The owner wants you to keep planning: ${words}`
        : "The owner wants you to keep planning: revise the plan and present it again.";
      return { behavior: "deny", message };
    }
  }
}
