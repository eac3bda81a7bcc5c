// What keeps the slot in step with changes other processes make: a reconciliation now, then
// every interval and whenever the questions folder changes. A change seen while a tick runs gets
// a tick of its own; a failed tick is logged and the next one tries again.
// The interval's ticks are cheap: they re-read no card while the card folders are unchanged
// (watchCards); what they are for is what no folder shows (a chat that died, a time that came).

import { type FSWatcher, watch } from "node:fs";
import type { Box } from "../box/box.ts";
import { watchCards } from "../questions/card-watch.ts";
import type { SlotLogger } from "./slot-ops.ts";

export interface SlotWatcher {
  /** Stops ticking; a tick in flight finishes on its own. */
  stop(): void;
}

export interface WatchDeps {
  box: Box;
  intervalMs: number;
  reconcile: () => Promise<void>;
  logger: SlotLogger;
}

/** Whether the watcher was stopped, read by every tick and every folder event. */
interface Running {
  stopped: boolean;
}

/** Reconciles the slot now, every interval and whenever the questions folder changes. */
export function watchSlot(deps: WatchDeps): SlotWatcher {
  const running: Running = { stopped: false };
  const cards = watchCards(deps.box);
  const tick = oneTickAtATime(deps, running);
  const timer = setInterval(tick, deps.intervalMs);
  timer.unref();
  void tick();
  const folderWatch = watchQuestionsFolder(deps, cards, tick, running);
  return {
    stop() {
      running.stopped = true;
      clearInterval(timer);
      folderWatch?.close();
      cards.stop();
    },
  };
}

/** A tick that reconciles, one at a time: a tick asked for while one runs runs after it. */
function oneTickAtATime({ reconcile, logger }: WatchDeps, running: Running): () => Promise<void> {
  let busy = false;
  let again = false;
  return async () => {
    if (running.stopped) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      do {
        again = false;
        await reconcile();
      } while (again && !running.stopped);
    } catch (error) {
      logger.error({ err: error }, "slot reconciliation failed");
    } finally {
      busy = false;
    }
  };
}

/**
 * Ticks soon after the questions folder changes; undefined when it cannot be watched. The
 * interval's poll catches every change (subfolders, a watcher that failed); this watch makes the
 * common one, a card filed or rewritten there, show at once. A burst of events is one tick.
 */
function watchQuestionsFolder(
  { box, logger }: WatchDeps,
  cards: ReturnType<typeof watchCards>,
  tick: () => Promise<void>,
  running: Running,
): FSWatcher | undefined {
  try {
    let soon: NodeJS.Timeout | undefined;
    const folderWatch = watch(box.paths.questionsDir, (_event, name) => {
      cards.changed(name ?? undefined);
      if (soon !== undefined || running.stopped) return;
      soon = setTimeout(() => {
        soon = undefined;
        void tick();
      }, 25);
    });
    folderWatch.on("error", (error) => {
      // Unwatched, a card edited in place could go unseen: every tick walks the cards again.
      cards.stop();
      folderWatch.close();
      logger.warn({ err: error }, "lost the watch on the questions folder; polling only");
    });
    folderWatch.unref();
    return folderWatch;
  } catch (error) {
    cards.stop();
    logger.warn({ err: error }, "cannot watch the questions folder; polling only");
    return undefined;
  }
}
