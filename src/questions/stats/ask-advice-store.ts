// The figures an ask's advice is read from (expectedWaitSeconds, hint), kept in the ledger for
// a minute so that every process reuses them: an agent that asks by running `qbridge ask`
// would otherwise pay, on every ask, a walk of the whole box, the stats over every card, and
// starting ICU for the time zone. A transition through the core forgets
// them at once, from whichever process it commits (forgetAskAdvice); a card changed by hand
// shows within the minute.

import type { Committed } from "../../box/commit.ts";
import type { Core } from "../core.ts";
import type { AdviceFigures } from "./ask-advice.ts";

/** How long the figures are reused, in wall time and in box time alike. */
export const ADVICE_STATS_REUSE_MS = 60_000;

// Named for what it holds: an entry a process before this one kept (the whole stats, under
// "ask-advice") is never read as figures.
const KEY = "ask-advice-figures";

export interface KeptAdvice {
  stats: AdviceFigures;
  /** The hour of day (in the stats' zone) all through the entry's minute. */
  hour: number;
  /** Box time and wall time (ms) when the figures were made. */
  boxAt: number;
  wallAt: number;
}

/** The kept figures, when made within the last minute of both clocks; else undefined. */
export function keptAdvice(core: Core, now: Date): KeptAdvice | undefined {
  let kept: KeptAdvice;
  try {
    const text = core.ledger.getMeta(KEY);
    if (!text) return undefined;
    kept = JSON.parse(text) as KeptAdvice;
  } catch {
    return undefined;
  }
  const within = (at: number, from: number) => at >= from && at - from < ADVICE_STATS_REUSE_MS;
  return within(now.getTime(), kept.boxAt) && within(Date.now(), kept.wallAt) ? kept : undefined;
}

export function keepAdvice(core: Core, kept: KeptAdvice): void {
  try {
    core.ledger.setMeta(KEY, JSON.stringify(kept));
  } catch {
    // Not kept: the next ask makes them again.
  }
}

/** After a commit: the figures no longer describe the box. */
export function forgetAskAdvice(core: Core): Committed {
  return () => {
    try {
      core.ledger.db.prepare("DELETE FROM meta WHERE key = ?").run(KEY);
    } catch {
      // A ledger that cannot be written: the figures age out within the minute.
    }
  };
}
