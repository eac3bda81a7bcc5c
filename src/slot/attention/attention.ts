// The slot's decision about the boxholder's attention: may a question be presented now, and
// with sound? During quiet hours only a `high` question is sent; a `low` one arrives silently;
// a question the boxholder put off ("Later") waits until its time. Bridges only carry the
// answer out (Telegram maps `silent` to disable_notification); they never decide it.

import { priorityOf, type Question } from "../../card/question.ts";
import { type QuietHours, quietUntil } from "./quiet-hours.ts";

export interface Attention {
  /** Unset: no quiet hours. */
  quietHours: QuietHours | undefined;
  /** The box's time zone (IANA name) the quiet hours and "Later" times are read in. */
  timeZone: string;
  /**
   * The box's zone is the process's own (QBRIDGE_TIMEZONE unset): a day in it can be read with
   * Date's local getters, without its name or Intl's date formats (stats-clock.ts).
   */
  ownZone?: boolean;
}

export const ALWAYS_AWAKE: Attention = { quietHours: undefined, timeZone: "UTC" };

/** When quiet hours hold at `now`, the instant they end. */
export function quietEnds(now: Date, attention: Attention): Date | undefined {
  return attention.quietHours
    ? quietUntil(now, attention.quietHours, attention.timeZone)
    : undefined;
}

export interface SendDecision {
  /** Set while the question must wait: the end of quiet hours. */
  heldUntil: Date | undefined;
  /** Sent without a sound (a `low` question outside quiet hours). */
  silent: boolean;
}

/** May the slot present this question now, and silently? */
export function sendDecision(
  card: Pick<Question, "priority">,
  now: Date,
  attention: Attention,
): SendDecision {
  const priority = priorityOf(card);
  if (priority === "high") return { heldUntil: undefined, silent: false };
  const heldUntil = quietEnds(now, attention);
  return { heldUntil, silent: heldUntil === undefined && priority === "low" };
}

/**
 * Until when a pending question waits before the slot may present it: its "Later" time, then
 * (for all but `high`) the end of the quiet hours that hold then. Undefined: it may be shown.
 */
export function heldUntil(
  card: Pick<Question, "priority">,
  now: Date,
  attention: Attention,
  laterUntil: string | undefined,
): Date | undefined {
  const later = laterUntil ? new Date(laterUntil) : undefined;
  const from = later && later.getTime() > now.getTime() ? later : now;
  const quiet = sendDecision(card, from, attention).heldUntil;
  if (quiet) return quiet;
  return from === now ? undefined : from;
}
