// The stats of a box as it is now: loads every readable card and hands them to the pure
// computation in stats.ts. Unreadable cards are left out (doctor names them).
// The advice an ask carries reuses the stats a process computed within the last minute, until
// this process commits a transition in that box: at 10,000 cards computing them is about as
// costly as the ask itself, and a running service asked hundreds of times a day would spend its
// CPU on them. A transition made by another process shows within that minute.

import type { Core } from "./core.ts";
import { onQuestionTransitioned } from "./events.ts";
import { boxState } from "./state.ts";
import { type AskAdvice, askAdvice, computeStats, type Stats } from "./stats.ts";

export function boxStats(core: Core, timeZone: string): Stats {
  const { pending, archive } = boxState(core);
  const cards = [...pending, ...archive].map((v) => v.card);
  return computeStats(cards, core.box.clock.now(), timeZone);
}

/** How long stats are reused for advice, in wall time and in box time alike. */
export const ADVICE_STATS_REUSE_MS = 60_000;

interface Reused {
  stats: Stats;
  timeZone: string;
  wallAt: number;
  boxAt: number;
  generation: number;
}

const reused = new WeakMap<Core, Reused>();
/** Per box root: how many transitions this process committed there. */
const generations = new Map<string, number>();
let listening = false;

function generationOf(root: string): number {
  return generations.get(root) ?? 0;
}

/** The advice for a question just asked with `prompt`, from the box's stats. */
export function adviceForAsk(core: Core, timeZone: string, prompt: string): AskAdvice {
  if (!listening) {
    listening = true;
    onQuestionTransitioned(({ root }) => generations.set(root, generationOf(root) + 1));
  }
  const now = core.box.clock.now();
  const wallAt = performance.now();
  const generation = generationOf(core.box.paths.root);
  let entry = reused.get(core);
  if (
    !entry ||
    entry.timeZone !== timeZone ||
    entry.generation !== generation ||
    wallAt - entry.wallAt > ADVICE_STATS_REUSE_MS ||
    Math.abs(now.getTime() - entry.boxAt) > ADVICE_STATS_REUSE_MS
  ) {
    entry = { stats: boxStats(core, timeZone), timeZone, wallAt, boxAt: now.getTime(), generation };
    reused.set(core, entry);
  }
  return askAdvice(entry.stats, prompt, now);
}
