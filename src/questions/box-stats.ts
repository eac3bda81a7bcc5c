// The stats of a box as it is now: loads every readable card and hands them to the pure
// computation in stats.ts. Unreadable cards are left out (doctor names them).

import type { Core } from "./core.ts";
import { boxState } from "./state.ts";
import { type AskAdvice, askAdvice, computeStats, type Stats } from "./stats.ts";

export function boxStats(core: Core, timeZone: string): Stats {
  const { pending, archive } = boxState(core);
  const cards = [...pending, ...archive].map((v) => v.card);
  return computeStats(cards, core.box.clock.now(), timeZone);
}

/** The advice for a question just asked with `prompt`, from the box's stats. */
export function adviceForAsk(core: Core, timeZone: string, prompt: string): AskAdvice {
  return askAdvice(boxStats(core, timeZone), prompt, core.box.clock.now());
}
