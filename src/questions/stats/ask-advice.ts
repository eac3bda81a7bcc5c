// The advice an ask carries (expectedWaitSeconds, hint): the part of the stats it reads, made
// from card digests as computeStats makes the whole (stats.ts), and read at the hour of the ask.
// Pure, as the stats are; ask-advice-store.ts keeps the figures, box-stats.ts makes them.

import type { CardDigest } from "../../ledger/card-index.ts";
import {
  byHourOf,
  EXPECTED_WAIT_MIN_ANSWERS,
  promptKey,
  recentAnswers,
  type Stats,
  UNANSWERED_RUN,
  type UnansweredPrompt,
  unansweredOf,
} from "./stats.ts";
import { shortDay, type Zone } from "./stats-clock.ts";

/** The part of the stats an ask's advice reads: answers by hour of day, prompts left unanswered. */
export interface AdviceFigures {
  /** The zone the hours are in; none: the process's own (stats-clock.ts). */
  timeZone?: Zone;
  byHour: Stats["responsiveness"]["byHour"];
  unanswered: UnansweredPrompt[];
}

/**
 * The same figures as computeStats gives for these, and nothing else: the advice is made anew
 * after every transition, and the rest (per asker, per day, in the chart) was a service's
 * garbage over every card on each ask.
 */
export function adviceFigures(
  cards: readonly CardDigest[],
  now: Date,
  timeZone: Zone,
): AdviceFigures {
  return {
    timeZone,
    byHour: byHourOf(recentAnswers(cards, now), timeZone),
    unanswered: unansweredOf(cards),
  };
}

/**
 * Whether the prompts of the cards closed unanswered (dismissed or expired) can make a run at
 * all: a run is one prompt's such cards alone, so with fewer than UNANSWERED_RUN of each prompt
 * there is none, whatever the other cards are, and they need not be read.
 */
export function mayRunUnanswered(closedUnanswered: readonly string[]): boolean {
  if (closedUnanswered.length < UNANSWERED_RUN) return false;
  const counts = new Map<string, number>();
  for (const prompt of closedUnanswered) {
    const key = promptKey(prompt);
    const count = (counts.get(key) ?? 0) + 1;
    if (count >= UNANSWERED_RUN) return true;
    counts.set(key, count);
  }
  return false;
}

/** What the ask response adds: the expected wait at this hour and a stop-asking hint. */
export interface AskAdvice {
  expectedWaitSeconds: number | null;
  hint: string | null;
}

/** The advice at `hourOfDay` (now's, in the stats' zone). */
export function askAdvice(stats: AdviceFigures, prompt: string, hourOfDay: number): AskAdvice {
  const hour = stats.byHour[hourOfDay];
  const key = promptKey(prompt);
  const match = stats.unanswered.find((u) => promptKey(u.prompt) === key);
  return {
    expectedWaitSeconds: hour && hour.count >= EXPECTED_WAIT_MIN_ANSWERS ? hour.p50Seconds : null,
    hint: match ? hintFor(match, stats.timeZone) : null,
  };
}

function hintFor(u: UnansweredPrompt, timeZone: Zone): string {
  const how =
    u.expired === 0
      ? "dismissed"
      : u.dismissed === 0
        ? "left to expire"
        : "dismissed or left to expire";
  return `${u.times} similar questions were ${how} without an answer since ${shortDay(new Date(u.since), timeZone)}`;
}
