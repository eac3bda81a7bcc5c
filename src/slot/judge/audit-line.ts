// The audit line the judge writes for each attempt, before the bridge acknowledges it: what
// was tried (a tap, a command, a late typed reply), by whom, on which surface, and what came
// of it. Never the truth of an answer (the commit is); losing a line loses nothing else.

import { safeAudit } from "../../questions/audit.ts";
import type { Attempt, Judging, Outcome } from "./attempt.ts";

/**
 * The audit line of an attempt: every tap and command, every typed text that came late, and
 * every typed text refused for who sent it (a stranger's, an asker's on a question an agent's
 * hook filed), with why the judge did not take them for the boxholder.
 */
export function audit(j: Judging, attempt: Attempt, outcome: Outcome): void {
  const forWho = outcome.reason === "stranger" || outcome.reason === "not-own-surface";
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
      if (forWho) {
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
  if (forWho && j.who.why) detail = `${detail} (${j.who.why})`;
  safeAudit(j.slot.core, {
    at: j.now(),
    questionId: outcome.token?.questionId ?? outcome.target?.questionId,
    surface: j.who.via,
    actor: j.who.by,
    action,
    verbatim,
    outcome: outcome.name,
    detail,
  });
}
