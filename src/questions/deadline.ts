// When a pending question expires: `asked-at` plus its `expires-after` (30 days without one).
// One function, so every presentation, the aging sweep's order and Extend agree on it.

import { DAY_MS } from "../card/duration.ts";
import type { Question } from "../card/question.ts";
import { expiryMs } from "./aging-policy.ts";

export function deadlineOf(card: Pick<Question, "asked-at" | "expires-after">): Date {
  return new Date(new Date(card["asked-at"]).getTime() + expiryMs(card));
}

/**
 * Whether a question is still the boxholder's to answer: a pending one past its deadline is the
 * sweep's to expire, so the slot neither shows nor counts it, nor does a triage digest.
 */
export function beforeDeadline(
  card: Pick<Question, "asked-at" | "expires-after">,
  now: Date,
): boolean {
  return deadlineOf(card).getTime() > now.getTime();
}

/**
 * "expires in 5 days", "expires in 3 hours", "expires in 20 minutes": what every presentation
 * says about the deadline, in whole units rounded down (a deadline is never shown later than it
 * is); "is past its deadline" once the sweep is due to expire it.
 */
export function expiryWords(deadline: Date, now: Date): string {
  const minutes = Math.floor((deadline.getTime() - now.getTime()) / 60_000);
  if (minutes < 1) return "is past its deadline";
  const [count, unit] =
    minutes >= 2 * 1440
      ? [Math.floor(minutes / 1440), "day"]
      : minutes >= 120
        ? [Math.floor(minutes / 60), "hour"]
        : [minutes, "minute"];
  return `expires in ${count} ${unit}${count === 1 ? "" : "s"}`;
}

/** What one Extend tap adds. */
export const EXTEND_STEP = "P7D";

/**
 * The time an Extend button offers to add, once the question expires within that time (or is
 * past its deadline and not yet expired); before then the button would only crowd the screen.
 */
export function extendOffer(
  card: Pick<Question, "asked-at" | "expires-after">,
  now: Date,
): string | undefined {
  return deadlineOf(card).getTime() - now.getTime() <= 7 * DAY_MS ? EXTEND_STEP : undefined;
}
