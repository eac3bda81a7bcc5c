// The judge's rule that an agent's request is allowed only where it was shown whole: every
// answer the judge records goes through the slot's `answer`, and this wraps it so that, inside
// the question's lock, an answer that would allow the card's request is refused when the
// surface it came from shows less of it than the card holds (src/card/agent-request.ts). A
// Deny, a No, a dismissal and every ordinary question pass untouched.

import { unseenAllow } from "../../card/agent-request.ts";
import type { Question } from "../../card/question.ts";
import { type AnswerAttempt, resolveAnswer } from "../../card/resolve.ts";
import { NotShownWhole } from "../../errors.ts";
import type { SlotOps } from "../slot-ops.ts";

/** Throws NotShownWhole when `attempt` would allow a request `shown` characters did not hold. */
export function refuseUnseenAllow(card: Question, attempt: AnswerAttempt, shown: number): void {
  let selected: string | undefined;
  try {
    selected = resolveAnswer(card, attempt).selected;
  } catch {
    return; // the transition refuses it, naming why
  }
  const refusal = unseenAllow(card, selected, shown);
  if (refusal) throw new NotShownWhole(refusal);
}

/** The slot's operations, whose answers refuse an allow the surface did not show whole. */
export function answersShownWhole(ops: SlotOps, shown: number): SlotOps {
  return {
    ...ops,
    answer: (id, attempt, surface, options = {}) =>
      ops.answer(id, attempt, surface, {
        ...options,
        recheck(card) {
          options.recheck?.(card);
          refuseUnseenAllow(card, attempt, shown);
        },
      }),
  };
}
