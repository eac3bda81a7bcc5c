// The aging policy: how old a pending question may get before it is nudged, and before it
// expires. Pure arithmetic on the card; the sweep that acts on it is aging.ts.

import { DAY_MS, parseDuration } from "../card/duration.ts";
import type { Question } from "../card/question.ts";

export const DEFAULT_EXPIRY_MS = 30 * DAY_MS;
export const DEFAULT_NUDGE_MS = 7 * DAY_MS;

export interface AgingSchedule {
  nudgeAtMs: number;
  expireAtMs: number;
}

/** How long after `asked-at` a card expires: its own `expires-after`, else the default. */
export function expiryMs(card: Pick<Question, "expires-after">): number {
  const override = card["expires-after"] ? parseDuration(card["expires-after"]) : undefined;
  return override ?? DEFAULT_EXPIRY_MS;
}

/** When a card is nudged and expired, as ages in milliseconds since `asked-at`. */
export function agingSchedule(card: Pick<Question, "expires-after">): AgingSchedule {
  const override = card["expires-after"] ? parseDuration(card["expires-after"]) : undefined;
  if (override !== undefined) return { nudgeAtMs: override / 2, expireAtMs: override };
  return { nudgeAtMs: DEFAULT_NUDGE_MS, expireAtMs: expiryMs(card) };
}
