// What the boxholder chose on a permission question, read once for every asker: allow once,
// for the session, always, with an edited command; deny, with an optional note; stop. Each
// asker turns the choice into its own reply (the hooks' AgentDecision, MCP's allow/deny text).
// Only a recorded allow allows: an outcome that is not answered is no choice at all, and any
// answer that is not one of the allows reads as a deny. Pure.

import type { QuestionOutcome } from "../outcome.ts";
import { CHOICES } from "./card.ts";

export type PermissionChoice =
  | { kind: "once" }
  | { kind: "session" }
  | { kind: "always" }
  | { kind: "edited"; command: string }
  | { kind: "deny"; note: string | undefined }
  | { kind: "stop"; note: string | undefined };

/** The boxholder's choice; undefined while nobody has answered (or the question ended). */
export function permissionChoice(outcome: QuestionOutcome): PermissionChoice | undefined {
  if (outcome.status !== "answered" || !outcome.answer) return undefined;
  const { selected, text } = outcome.answer;
  const note = outcome.answer.note?.trim() || undefined;
  switch (selected) {
    case CHOICES.once:
    case "yes":
      return { kind: "once" };
    case CHOICES.session:
      return { kind: "session" };
    case CHOICES.always:
      return { kind: "always" };
    case CHOICES.edited:
      return { kind: "edited", command: text };
    case CHOICES.stop:
      return { kind: "stop", note };
    default:
      return { kind: "deny", note };
  }
}
