// "Last time": the answered question most like the one about to be presented, for every bridge
// to show the same way ("Last time (3 Mar): Finance") and, when its answer can be recorded again
// on this question, to offer it as one tap. Only informs: recording needs that tap.

import type { Core } from "../questions/core.ts";
import { type LastTime, similarQuestions } from "../questions/similar.ts";
import type { QuestionView } from "../questions/state.ts";
import type { Attention } from "./attention.ts";

export interface LastTimeOffer extends LastTime {
  /** The day it was answered, in the box's time zone: "3 Mar". */
  day: string;
}

/** The month's short name, the same whichever way the day was read (not ICU's, which varies). */
const MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec".split(" ");

/**
 * "3 Mar": the day `at` falls on in the box's zone, given by name or as the slot's attention.
 * In the process's own zone (`ownZone`) Date's local getters read it, which take only ICU's
 * rules for that zone; Intl's date formats, and the zone's name (Intl too), would page in ~8 MB
 * of node's binary that a service then keeps. The name is asked for only when it is needed.
 */
export function dayIn(at: Date, zone: string | Pick<Attention, "timeZone" | "ownZone">): string {
  if (typeof zone !== "string" && zone.ownZone) return `${at.getDate()} ${MONTHS[at.getMonth()]}`;
  const parts = new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "numeric",
    timeZone: typeof zone === "string" ? zone : zone.timeZone,
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return `${part("day")} ${MONTHS[part("month") - 1]}`;
}

/** The best similar answered question, or undefined; a memory that fails costs only the line. */
export function lastTimeFor(
  core: Core,
  question: QuestionView,
  zone: string | Pick<Attention, "timeZone" | "ownZone">,
): LastTimeOffer | undefined {
  try {
    const best = similarQuestions(core, question.card, question.id)[0];
    if (!best) return undefined;
    // An irreversible question is answered only after a confirming step: no one-tap answer.
    if (question.card.irreversible) best.reusable = undefined;
    return { ...best, day: dayIn(new Date(best.answeredAt), zone) };
  } catch (error) {
    core.ledger.reportLost("the answer memory's lookup", error);
    return undefined;
  }
}
