// Withdrawal by the asker: the question no longer needs an answer. Final: a withdrawn question
// takes no answer, and a late attempt is refused naming the withdrawal (transition.ts). Runs
// through the transition core like every other change of status; writes no job.

import { rewriteCardText } from "../card/codec.ts";
import { controlCharacterIn, type Status } from "../card/question.ts";
import { InvalidInput } from "../errors.ts";
import type { Surface } from "./answer.ts";
import { auditRefused } from "./audit.ts";
import type { Core } from "./core.ts";
import { withQuestionTransition } from "./transition.ts";

/** What an asker may withdraw: anything not answered (nor withdrawn already). */
export const WITHDRAWABLE = ["pending", "dismissed", "expired"] as const satisfies Status[];

export const MAX_REASON_LENGTH = 2_000;

export interface WithdrawResult {
  id: string;
  at: string;
  reason: string | undefined;
  previous: Status;
  commit: string;
}

/** Withdraws the question (final: it takes no answer after), or audits the refusal. */
export async function withdrawQuestion(
  core: Core,
  id: string,
  surface: Surface,
  options: { reason?: string | undefined } = {},
): Promise<WithdrawResult> {
  const reason = checkedReason(options.reason);
  const at = core.box.clock.iso();
  /** What its audit line says, applied or refused. */
  const audit = {
    at,
    questionId: id,
    surface: surface.via,
    actor: surface.by,
    action: "withdraw",
    verbatim: reason,
  };
  try {
    const { commit, value } = await withQuestionTransition(
      core,
      id,
      "withdraw",
      WITHDRAWABLE,
      (current) => ({
        plan: {
          writes: [
            {
              rel: current.rel,
              content: rewriteCardText(current.text, {
                status: "withdrawn",
                "withdrawn-at": at,
                "withdrawn-reason": reason,
                "dismissed-at": undefined,
                "expired-at": undefined,
              }),
            },
          ],
          message: `withdraw: ${current.card.prompt.replace(/\s+/g, " ").slice(0, 60)}`,
          trailers: { "Withdrawn-Via": surface.via, Question: id },
          record: { ...audit, outcome: "applied" },
        },
        value: current.card.status,
      }),
    );
    return { id, at, reason, previous: value, commit };
  } catch (error) {
    auditRefused(core, audit, error);
    throw error;
  }
}

/** The reason with spacing collapsed (none if blank); refuses one too long or with controls. */
function checkedReason(raw: string | undefined): string | undefined {
  const reason = raw?.replace(/\s+/g, " ").trim() || undefined;
  if (reason !== undefined && reason.length > MAX_REASON_LENGTH) {
    throw new InvalidInput(
      `the reason is ${reason.length} characters long: keep it under ${MAX_REASON_LENGTH}`,
    );
  }
  // The reason is shown on every surface (a terminal too), as card text is: no escapes.
  const control = reason === undefined ? undefined : controlCharacterIn(reason);
  if (control) {
    throw new InvalidInput(
      `the reason contains a control character (${control}): a reason may carry any text, tabs and line breaks, no other control character`,
    );
  }
  return reason;
}
