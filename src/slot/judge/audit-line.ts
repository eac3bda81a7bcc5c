// The audit line the judge writes for each attempt, before the bridge acknowledges it: what
// was tried (a tap, a command, a late typed reply), by whom, on which surface, and what came
// of it. Never the truth of an answer (the commit is); losing a line loses nothing else.

import { safeAudit } from "../../questions/audit.ts";
import type { Attempt, Judging, Outcome } from "./attempt.ts";

/**
 * The audit line of an attempt: every tap and command, every typed text that came late, and
 * every stranger's text. A stranger's tap is audited by the bridge's refusal
 * (`refuseStranger`), with its chat.
 */
export function audit(j: Judging, attempt: Attempt, outcome: Outcome): void {
  const stranger = outcome.reason === "stranger";
  if (stranger && attempt.kind === "button") return;
  let action: string;
  let verbatim: string | undefined;
  let detail = outcome.reply;
  switch (attempt.kind) {
    case "button":
      action = `tap:${outcome.token?.action ?? "unknown"}`;
      verbatim = outcome.token?.label;
      break;
    case "command":
      action = `command:${attempt.action}`;
      break;
    case "text":
      if (stranger) {
        action = "message";
        verbatim = attempt.text.slice(0, 500);
        break;
      }
      if (outcome.reason !== "late" && outcome.name !== "already-recorded") return;
      action = "late-reply";
      verbatim = attempt.text;
      detail = outcome.closure?.text ?? detail;
      break;
  }
  safeAudit(j.slot.core, {
    at: j.now(),
    questionId: outcome.token?.questionId ?? outcome.target?.questionId,
    surface: attempt.surface,
    actor: attempt.actor.id,
    action,
    verbatim,
    outcome: outcome.name,
    detail,
  });
}
