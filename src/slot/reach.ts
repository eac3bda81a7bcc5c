// Whether the boxholder's chat on a surface can be reached, and when to try it again.
//
// A chat that refused a message (the bot blocked, the chat gone: ChatRefuses from the presenter)
// refuses the next ones too, so the slot does not present or nudge there at every tick: it tries
// again after a hold-off that doubles with each refusal, up to a cap, and at once when the
// boxholder writes on that surface again. Time is the box clock's, so tests move it instead of
// waiting (a frozen QBRIDGE_TIME freezes that hold-off too: then only the boxholder's word or
// /next ends it).
//
// A chat service that failed otherwise (down, unreachable, a 5xx) comes back by itself: the slot
// tries presenting again after 5 s, doubling up to a minute, on the wall clock (an outage is real
// time whatever the box's clock says). A day's outage is one warning as it starts, a reminder
// every half hour, and one line when it ends, not a warning every few seconds.

import { type Backoff, nextBackoff } from "../backoff.ts";
import { ChatRefuses } from "./presentation/presenter.ts";
import type { SlotLogger } from "./slot-ops.ts";

/** The first hold-off after a refusal; each refusal after it doubles it, up to the cap. */
export const FIRST_HOLD_OFF_MS = 30_000;
export const MAX_HOLD_OFF_MS = 15 * 60_000;
/** The same for a chat service that failed: a shorter start, a shorter cap. */
export const FIRST_RETRY_MS = 5_000;
export const MAX_RETRY_MS = 60_000;
/** While a chat service keeps failing, the log says so again this often. */
const REFUSED_BACKOFF: Backoff = { firstMs: FIRST_HOLD_OFF_MS, maxMs: MAX_HOLD_OFF_MS };
const FAILED_BACKOFF: Backoff = { firstMs: FIRST_RETRY_MS, maxMs: MAX_RETRY_MS };
export const FAILING_REMINDER_MS = 30 * 60_000;

export interface Reach {
  /** False while `surface`'s chat is held off (it refused, or its service failed). */
  open(surface: string): boolean;
  /** True while `surface`'s chat refuses messages (the bot blocked, the chat gone). */
  refusing(surface: string): boolean;
  /** A message to `surface`'s chat was refused: the next hold-off starts now. */
  refused(surface: string, error: unknown): void;
  /** Showing a question through `surface` failed otherwise: tried again after a short wait. */
  failed(surface: string, error: unknown, question: string): void;
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

interface HoldOff {
  /** The hold-off that runs now. */
  holdOffMs: number;
  /** When the next try may be made (ms, on the clock of its kind). */
  until: number;
}

/** A chat that refused (box clock), or a chat service that keeps failing (wall clock). */
type Held =
  | (HoldOff & { kind: "refused" })
  | (HoldOff & {
      kind: "failing";
      /** Failures so far, when the first was and when the log last said so (wall clock, ms). */
      tries: number;
      since: number;
      toldAt: number;
    });

/** What each surface's hold-off is, the two clocks they run on, and where they are told. */
interface Holds {
  held: Map<string, Held>;
  boxNow: () => number;
  wallNow: () => number;
  logger: SlotLogger;
}

/** The reachability of each surface's chat, held off after refusals and failures. */
export function createReach(deps: {
  now: () => Date;
  logger: SlotLogger;
  /** The wall clock (ms) a failing chat service is retried on; Date.now unless a test sets it. */
  wallClock?: (() => number) | undefined;
}): Reach {
  const holds: Holds = {
    held: new Map(),
    boxNow: () => deps.now().getTime(),
    wallNow: deps.wallClock ?? Date.now,
    logger: deps.logger,
  };
  const reach: Reach = {
    open(surface) {
      const state = holds.held.get(surface);
      if (state === undefined) return true;
      return (state.kind === "refused" ? holds.boxNow() : holds.wallNow()) >= state.until;
    },
    refusing: (surface) => holds.held.get(surface)?.kind === "refused",
    refused: (surface, error) => holdRefused(holds, surface, error),
    failed: (surface, error, question) => holdFailing(holds, surface, error, question),
    reached(surface) {
      cleared(holds, surface, "a message reached it");
    },
    heard: (surface) => cleared(holds, surface, "the boxholder wrote"),
    async through(surface, send) {
      try {
        const delivered = await send();
        if (delivered) cleared(holds, surface, "a message reached it");
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

/** Ends the surface's hold-off and logs that it works again; false when none was running. */
function cleared({ held, wallNow, logger }: Holds, surface: string, why: string): boolean {
  const state = held.get(surface);
  if (!state) return false;
  held.delete(surface);
  if (state.kind === "refused") {
    logger.info({ surface }, `the boxholder's chat takes messages again (${why})`);
  } else {
    const seconds = Math.round((wallNow() - state.since) / 1000);
    logger.info(
      { surface, tries: state.tries, seconds },
      `the chat service works again (${why}) after ${state.tries} failed ${state.tries === 1 ? "try" : "tries"} over ${seconds} s`,
    );
  }
  return true;
}

/** A refusal: the next, doubled hold-off on the box clock; warns at the first one only. */
function holdRefused({ held, boxNow, logger }: Holds, surface: string, error: unknown): void {
  const before = held.get(surface);
  const again = before?.kind === "refused";
  const holdOffMs = nextBackoff(again ? before.holdOffMs : undefined, REFUSED_BACKOFF);
  held.set(surface, { kind: "refused", holdOffMs, until: boxNow() + holdOffMs });
  if (again) return;
  logger.warn(
    { surface, err: error },
    `the boxholder's chat refuses messages (the bot blocked, or the chat gone): questions wait; tried again after ${FIRST_HOLD_OFF_MS / 1000} s, then at doubling intervals up to ${MAX_HOLD_OFF_MS / 60_000} min, and at once when the boxholder writes to the bot`,
  );
}

/** A failure: a shorter hold-off on the wall clock; warns as it starts, then every reminder. */
function holdFailing(
  { held, wallNow, logger }: Holds,
  surface: string,
  error: unknown,
  question: string,
): void {
  const before = held.get(surface);
  // A refusal says more than a failure: its longer hold-off stands.
  if (before?.kind === "refused") return;
  const at = wallNow();
  const holdOffMs = nextBackoff(before?.holdOffMs, FAILED_BACKOFF);
  const state = before ?? {
    kind: "failing" as const,
    holdOffMs,
    until: 0,
    tries: 0,
    since: at,
    toldAt: at,
  };
  state.holdOffMs = holdOffMs;
  state.until = at + holdOffMs;
  state.tries += 1;
  held.set(surface, state);
  if (!before) {
    logger.warn(
      { surface, err: error, question },
      `could not present a question: tried again after ${FIRST_RETRY_MS / 1000} s, then at doubling intervals up to ${MAX_RETRY_MS / 1000} s; the log says when it works again`,
    );
  } else if (at - state.toldAt >= FAILING_REMINDER_MS) {
    state.toldAt = at;
    logger.warn(
      { surface, err: error, question, tries: state.tries },
      `presenting still fails: ${state.tries} tries over ${Math.round((at - state.since) / 60_000)} min`,
    );
  }
}
