// Whether the boxholder's chat on a surface takes messages. A chat that refused one (the bot
// blocked, the chat gone: ChatRefuses from the presenter) refuses the next ones too, so the slot
// does not present or nudge there at every tick: it tries again after a hold-off that doubles
// with each refusal, up to a cap, and at once when the boxholder writes on that surface again.
// Time is the box clock's, so tests move it instead of waiting (a frozen QBRIDGE_TIME freezes
// the hold-off too: then only the boxholder's word or /next ends it). The log says so once as
// the chat stops taking messages and once as it takes them again.

import { ChatRefuses } from "./presenter.ts";
import type { SlotLogger } from "./slot.ts";

/** The first hold-off after a refusal; each refusal after it doubles it, up to the cap. */
export const FIRST_HOLD_OFF_MS = 30_000;
export const MAX_HOLD_OFF_MS = 15 * 60_000;

export interface Reach {
  /** False while `surface`'s chat refused messages and its hold-off has not ended. */
  open(surface: string): boolean;
  /** A message to `surface`'s chat was refused: the next hold-off starts now. */
  refused(surface: string, error: unknown): void;
  /** A message reached `surface`'s chat. */
  reached(surface: string): void;
  /** The boxholder wrote on `surface`: its chat takes messages. True when it was held off. */
  heard(surface: string): boolean;
  /**
   * Sends through `surface` (a nudge, a notice): false, and the hold-off goes on, when its chat
   * refused; any other failure is the caller's.
   */
  through(surface: string, send: () => Promise<boolean>): Promise<boolean>;
}

interface Held {
  /** The hold-off that runs now. */
  holdOffMs: number;
  /** When the next try may be made (box clock, ms). */
  until: number;
}

export function createReach(deps: { now: () => Date; logger: SlotLogger }): Reach {
  const held = new Map<string, Held>();
  const now = () => deps.now().getTime();

  function cleared(surface: string, why: string): boolean {
    if (!held.delete(surface)) return false;
    deps.logger.info({ surface }, `the boxholder's chat takes messages again (${why})`);
    return true;
  }

  const reach: Reach = {
    open(surface) {
      const state = held.get(surface);
      return state === undefined || now() >= state.until;
    },
    refused(surface, error) {
      const before = held.get(surface);
      const holdOffMs = before
        ? Math.min(before.holdOffMs * 2, MAX_HOLD_OFF_MS)
        : FIRST_HOLD_OFF_MS;
      held.set(surface, { holdOffMs, until: now() + holdOffMs });
      if (before) return;
      deps.logger.warn(
        { surface, err: error },
        `the boxholder's chat refuses messages (the bot blocked, or the chat gone): questions wait; tried again after ${FIRST_HOLD_OFF_MS / 1000} s, then at doubling intervals up to ${MAX_HOLD_OFF_MS / 60_000} min, and at once when the boxholder writes to the bot`,
      );
    },
    reached(surface) {
      cleared(surface, "a message reached it");
    },
    heard(surface) {
      return cleared(surface, "the boxholder wrote");
    },
    async through(surface, send) {
      try {
        const delivered = await send();
        if (delivered) cleared(surface, "a message reached it");
        return delivered;
      } catch (error) {
        if (!(error instanceof ChatRefuses)) throw error;
        reach.refused(surface, error);
        return false;
      }
    },
  };
  return reach;
}
