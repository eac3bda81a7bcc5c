// The guard against presenting one question again and again, whatever the cause (a presenter
// that shows nothing, a card that changes at every look, a card the scan and a load disagree
// on): after REPEATS_FREE tries in a row, each less than REPEAT_GAP_MS after the last pause
// ended, the question is held off for a pause that doubles with each further try
// (src/backoff.ts), and the slot shows the others meanwhile. What a person asks for goes past
// it: their /next, and their Show (a tap, Extend, the chat's `next`). Wall-clock time: a loop costs real time whatever the box's clock says.

import { type Backoff, nextBackoff } from "../../backoff.ts";
import type { SlotLogger } from "../slot-ops.ts";

export const REPEATS_FREE = 3;
export const REPEAT_GAP_MS = 60_000;
const REPEAT_BACKOFF: Backoff = { firstMs: 30_000, maxMs: 15 * 60_000 };

interface Streak {
  tries: number;
  /** When the last try was made (wall clock, ms). */
  lastAt: number;
  /** The pause that runs now, and until when. */
  pauseMs?: number;
  until: number;
}

export interface Repeats {
  /** False while `questionId` is held off for having been presented again and again. */
  mayPresent(questionId: string): boolean;
  /** The slot tried to present `questionId`, whether or not it was shown. */
  tried(questionId: string): void;
}

export function createRepeats(deps: { wallClock: () => number; logger: SlotLogger }): Repeats {
  const streaks = new Map<string, Streak>();
  const over = (streak: Streak, now: number) =>
    now - streak.lastAt > (streak.pauseMs ?? 0) + REPEAT_GAP_MS;
  return {
    mayPresent(questionId) {
      const streak = streaks.get(questionId);
      return !streak || deps.wallClock() >= streak.until;
    },
    tried(questionId) {
      const now = deps.wallClock();
      for (const [id, streak] of streaks) if (over(streak, now)) streaks.delete(id);
      const streak = streaks.get(questionId) ?? { tries: 0, lastAt: now, until: 0 };
      streak.tries++;
      streak.lastAt = now;
      if (streak.tries >= REPEATS_FREE) {
        streak.pauseMs = nextBackoff(streak.pauseMs, REPEAT_BACKOFF);
        streak.until = now + streak.pauseMs;
        deps.logger.warn(
          { question: questionId, tries: streak.tries, pauseMs: streak.pauseMs },
          "presented again and again: held off before the next try",
        );
      }
      streaks.set(questionId, streak);
    },
  };
}
