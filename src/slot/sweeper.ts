// The aging sweep as `qbridge serve` runs it: at start, every QBRIDGE_SWEEP_MINUTES, as quiet
// hours end (nudges held overnight go out then, not at the next tick) and whenever the service
// asks (a bridge that came to hold its surface). One sweep at a time; a failed one is logged,
// and the next runs as planned. Each sweep ages the questions (nudges through the slot), then
// reconciles the slot and tells the boxholder of questions that expired unanswered.

import { pauseUntil } from "../backoff.ts";
import { ageQuestions, type SweepReport } from "../questions/aging.ts";
import { type Attention, quietEnds } from "./attention/attention.ts";
import type { Slot, SlotLogger } from "./slot.ts";

export interface Sweeper {
  /** Sweeps now (or joins the sweep under way); rejects when it fails. */
  sweep(): Promise<SweepReport>;
  /** Sweeps now and keeps sweeping on the timers; resolves after the first sweep. */
  start(): Promise<void>;
  /** Sweeps now, logging a failure instead of rejecting. */
  soon(): Promise<void>;
  /** Stops the timers and waits for a sweep under way. */
  stop(): Promise<void>;
}

export function createSweeper(deps: {
  slot: Slot;
  logger: SlotLogger;
  sweepMinutes: number;
  attention: Attention;
}): Sweeper {
  const { slot, logger } = deps;
  const { core } = slot;
  let sweeping: Promise<SweepReport> | undefined;
  let everyTimer: NodeJS.Timeout | undefined;
  let quietTimer: NodeJS.Timeout | undefined;
  let stopped = false;

  const sweep = () => {
    sweeping ??= (async () => {
      try {
        return await ageAndTell(slot, logger);
      } finally {
        sweeping = undefined;
      }
    })();
    return sweeping;
  };
  const soon = () =>
    sweep().then(
      () => undefined,
      (error) => logger.error({ err: error }, "aging sweep failed"),
    );

  /** Plans one sweep for a second after the quiet hours under way end (none outside them). */
  const afterQuietHours = () => {
    const end = quietEnds(core.box.clock.now(), deps.attention);
    if (!end || quietTimer || stopped) return;
    quietTimer = setTimeout(
      () => {
        quietTimer = undefined;
        void soon().then(afterQuietHours);
      },
      pauseUntil(end.getTime() + 1_000, core.box.clock.now().getTime()),
    );
  };

  return {
    sweep,
    soon,
    async start() {
      everyTimer = setInterval(soon, Math.max(1_000, deps.sweepMinutes * 60_000));
      await soon();
      afterQuietHours();
    },
    async stop() {
      stopped = true;
      clearInterval(everyTimer);
      clearTimeout(quietTimer);
      await sweeping?.catch(() => undefined);
    },
  };
}

/** One sweep: expire and nudge (logged when it did), bring the slot in step, tell what expired. */
async function ageAndTell(slot: Slot, logger: SlotLogger): Promise<SweepReport> {
  const report = await ageQuestions(slot.core, { nudge: slot.nudger() });
  if (report.expired.length || report.nudged.length) {
    logger.info(
      { expired: report.expired, nudged: report.nudged, due: report.nudgeDue },
      "aging sweep",
    );
  }
  await slot.reconcile();
  const told = await slot.tellExpired();
  if (told.length) logger.info({ told }, "told the boxholder of expired questions");
  return report;
}
