// The stats of a box as it is now: the digest of every readable card, from the card index
// made current, handed to the pure computation in stats.ts. Unreadable cards are left out
// (doctor names them).
// The advice an ask carries reuses the stats any process made within the last minute
// (ask-advice-store.ts): at 10,000 cards making them is about as costly as the ask itself.
// Made anew, they read only what they use (advice-digests.ts), not every card's digest.

import { answeredTimes, unansweredPrompts } from "../../ledger/advice-digests.ts";
import { type CardDigest, indexedDigests } from "../../ledger/card-index.ts";
import type { Ledger } from "../../ledger/ledger.ts";
import type { Core } from "../core.ts";
import { freshenIndex } from "../scan.ts";
import { closedAt } from "../state.ts";
import { type AdviceFigures, type AskAdvice, askAdvice, mayRunUnanswered } from "./ask-advice.ts";
import { ADVICE_STATS_REUSE_MS, keepAdvice, keptAdvice } from "./ask-advice-store.ts";
import { byHourOf, computeStats, recentAnswers, type Stats, unansweredOf } from "./stats.ts";
import { hourIn, type Zone, type ZoneSource, zoneOf } from "./stats-clock.ts";

export { ADVICE_STATS_REUSE_MS } from "./ask-advice-store.ts";

export function boxStats(core: Core, timeZone: string): Stats {
  return computeStats(statsCards(core), core.box.clock.now(), timeZone);
}

/** Every readable card's digest, the index made current first, newest closed first. */
function statsCards(core: Core): CardDigest[] {
  freshenIndex(core.box, core.ledger);
  return orderedDigests(core.ledger);
}

function orderedDigests(ledger: Ledger): CardDigest[] {
  const digests = indexedDigests(ledger);
  // Pending in slot order, then the most recently closed first, so questions asked at the
  // same instant are counted in the same order each time. Compared by their characters, not by
  // locale (which starts ICU's collation, which a service keeps): ISO times of one shape sort
  // the same either way.
  const pending = digests.filter((d) => d.card.status === "pending");
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const archive = digests
    .filter((d) => d.card.status !== "pending")
    .sort((a, b) => order(closedAt(b.card), closedAt(a.card)) || order(a.id, b.id));
  return [...pending, ...archive].map((d) => d.card);
}

/**
 * The figures adviceFigures (ask-advice.ts) gives over every indexed card in statsCards' order,
 * read from the index as it is: the answered cards' two times for the hours (their order does
 * not count: each hour's times are sorted), and every card only when some prompt was closed
 * unanswered often enough to make a run. One read transaction: one state of the index.
 */
export function indexedAdviceFigures(ledger: Ledger, now: Date, timeZone: Zone): AdviceFigures {
  return ledger.db.transaction(() => ({
    timeZone,
    byHour: byHourOf(recentAnswers(answeredTimes(ledger), now), timeZone),
    unanswered: mayRunUnanswered(unansweredPrompts(ledger))
      ? unansweredOf(orderedDigests(ledger))
      : [],
  }))();
}

/** The advice for a question just asked with `prompt`, from the box's stats. The zone's name
 * (which may start ICU) is asked for only when the figures are made anew, and never when the
 * zone is the process's own (stats-clock.ts). */
export function adviceForAsk(core: Core, zone: string | ZoneSource, prompt: string): AskAdvice {
  const now = core.box.clock.now();
  let kept = keptAdvice(core, now);
  if (!kept) {
    const timeZone = zoneOf(zone);
    freshenIndex(core.box, core.ledger);
    const stats = indexedAdviceFigures(core.ledger, now, timeZone);
    kept = { stats, hour: hourIn(now, timeZone), boxAt: now.getTime(), wallAt: Date.now() };
    // Kept only when the hour of day holds for the whole minute it may be reused.
    const later = new Date(now.getTime() + ADVICE_STATS_REUSE_MS);
    if (hourIn(later, timeZone) === kept.hour) keepAdvice(core, kept);
  }
  return askAdvice(kept.stats, prompt, kept.hour);
}
