// "Last time": the answered question most like the one about to be presented, for every bridge
// to show the same way ("Last time (3 Mar): Finance") and, when its answer can be recorded again
// on this question, to offer it as one tap. Only informs: recording needs that tap.

import type { Core } from "../questions/core.ts";
import { type LastTime, similarQuestions } from "../questions/similar.ts";
import type { QuestionView } from "../questions/state.ts";

export interface LastTimeOffer extends LastTime {
  /** The day it was answered, in the box's time zone: "3 Mar". */
  day: string;
}

/**
 * The best similar answered question, or undefined; a memory that fails costs only the line.
 * The zone (`timeZone`, which may start ICU: ~6 MB a service keeps) is asked for only when
 * there is a day to show.
 */
export function lastTimeFor(
  core: Core,
  question: QuestionView,
  timeZone: string | (() => string),
): LastTimeOffer | undefined {
  try {
    const best = similarQuestions(core, question.card, question.id)[0];
    if (!best) return undefined;
    // An irreversible question is answered only after a confirming step: no one-tap answer.
    if (question.card.irreversible) best.reusable = undefined;
    const day = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "short",
      timeZone: typeof timeZone === "string" ? timeZone : timeZone(),
    }).format(new Date(best.answeredAt));
    return { ...best, day };
  } catch (error) {
    core.ledger.reportLost("the answer memory's lookup", error);
    return undefined;
  }
}
