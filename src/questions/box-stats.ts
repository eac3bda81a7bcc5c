// The stats of a box as it is now: loads every readable card and hands them to the pure
// computation in stats.ts. Unreadable cards are left out (doctor names them).
// The advice an ask carries reuses the stats any process made within the last minute
// (ask-advice-store.ts): at 10,000 cards making them is about as costly as the ask itself.

import { ADVICE_STATS_REUSE_MS, keepAdvice, keptAdvice } from "./ask-advice-store.ts";
import type { Core } from "./core.ts";
import { boxState } from "./state.ts";
import { type AskAdvice, askAdvice, computeStats, type Stats } from "./stats.ts";
import { hourIn } from "./stats-clock.ts";

export { ADVICE_STATS_REUSE_MS } from "./ask-advice-store.ts";

export function boxStats(core: Core, timeZone: string): Stats {
  const { pending, archive } = boxState(core);
  const cards = [...pending, ...archive].map((v) => v.card);
  return computeStats(cards, core.box.clock.now(), timeZone);
}

/** The advice for a question just asked with `prompt`, from the box's stats. The zone is
 * asked for (`timeZone`, which may start ICU) only when the figures are made anew. */
export function adviceForAsk(
  core: Core,
  timeZone: string | (() => string),
  prompt: string,
): AskAdvice {
  const now = core.box.clock.now();
  let kept = keptAdvice(core, now);
  if (!kept) {
    const zone = typeof timeZone === "string" ? timeZone : timeZone();
    const stats = boxStats(core, zone);
    kept = { stats, hour: hourIn(now, zone), boxAt: now.getTime(), wallAt: Date.now() };
    // Kept only when the hour of day holds for the whole minute it may be reused.
    const later = new Date(now.getTime() + ADVICE_STATS_REUSE_MS);
    if (hourIn(later, zone) === kept.hour) keepAdvice(core, kept);
  }
  return askAdvice(kept.stats, prompt, kept.hour);
}
