// The one line after quiet hours: "3 questions arrived overnight; here is the first". Which
// night was told already is kept in the ledger's meta, so the line comes once per night, also
// across restarts, and only with the first question shown after that night.

import { priorityOf } from "../../card/question.ts";
import type { Core } from "../../questions/core.ts";
import type { QuestionView } from "../../questions/state.ts";
import { type Attention, quietEnds } from "./attention.ts";
import { lastQuiet } from "./quiet-hours.ts";

const TOLD_THROUGH = "overnight-told-through";

export interface OvernightNews {
  /** Questions filed during the last quiet hours that were held and still wait. */
  count: number;
  /** The end of that night: recorded once the line went out with a presentation. */
  through: string;
}

/** What arrived during the last quiet hours and was not told yet; undefined while they hold. */
export function overnightNews(
  core: Core,
  attention: Attention,
  pending: readonly QuestionView[],
): OvernightNews | undefined {
  // The zone is read only with quiet hours set: reading it may start ICU (which a service then keeps).
  const { quietHours } = attention;
  if (!quietHours) return undefined;
  const now = core.box.clock.now();
  // Inside quiet hours only a `high` question is shown: no night has just ended.
  if (quietEnds(now, attention)) return undefined;
  const night = lastQuiet(now, quietHours, attention.timeZone);
  const told = core.ledger.getMeta(TOLD_THROUGH);
  if (told !== undefined && new Date(told).getTime() >= night.end.getTime()) return undefined;
  const count = pending.filter((q) => {
    if (priorityOf(q.card) === "high") return false;
    const asked = new Date(q.card["asked-at"]).getTime();
    return asked >= night.start.getTime() && asked < night.end.getTime();
  }).length;
  return { count, through: night.end.toISOString() };
}

export function overnightTold(core: Core, news: OvernightNews): void {
  core.ledger.setMeta(TOLD_THROUGH, news.through);
}
