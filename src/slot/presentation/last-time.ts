// "Last time": the answered question most like the one about to be presented, for every bridge
// to show the same way ("Last time (3 Mar): Finance") and, when its answer can be recorded again
// on this question, to offer it as one tap. Only informs: recording needs that tap.

import type { Core } from "../../questions/core.ts";
import { type LastTime, similarQuestions } from "../../questions/similar.ts";
import type { QuestionView } from "../../questions/state.ts";
import { shortDay, type ZoneSource, zoneOf } from "../../questions/stats/stats-clock.ts";

export interface LastTimeOffer extends LastTime {
  /** The day it was answered, in the box's time zone: "3 Mar". */
  day: string;
}

/**
 * The best similar answered question, or undefined; a memory that fails costs only the line.
 * Its day is read in the box's zone, the name given or known by `zone` (settings or the slot's
 * attention): in the process's own zone without Intl (stats-clock.ts), else asked for only when
 * there is a day to show.
 */
export function lastTimeFor(
  core: Core,
  question: QuestionView,
  zone: string | ZoneSource,
): LastTimeOffer | undefined {
  try {
    const best = similarQuestions(core, question.card, question.id)[0];
    if (!best) return undefined;
    // An irreversible question is answered only after a confirming step: no one-tap answer.
    if (question.card.irreversible) best.reusable = undefined;
    return { ...best, day: shortDay(new Date(best.answeredAt), zoneOf(zone)) };
  } catch (error) {
    core.ledger.reportLost("the answer memory's lookup", error, "the question is shown without it");
    return undefined;
  }
}
