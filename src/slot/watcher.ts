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

export function watchSlot(deps: {
  box: Box;
  intervalMs: number;
  reconcile: () => Promise<void>;
  logger: SlotLogger;
}): SlotWatcher {
  const { logger } = deps;
  let stopped = false;
  let busy = false;
  let again = false;
  const cards = watchCards(deps.box);

  const tick = async () => {
    if (stopped) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      do {
        again = false;
        await deps.reconcile();
      } while (again && !stopped);
    } catch (error) {
      logger.error({ err: error }, "slot reconciliation failed");
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(tick, deps.intervalMs);
  timer.unref();
  void tick();
  const folderWatch = watchFolder(deps.box, cards, logger, () => {
    if (!stopped) void tick();
  });
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      folderWatch?.close();
      cards.stop();
    },
  };
}

/**
 * The poll catches every change (subfolders, a watcher that failed); a watch on the questions
 * folder makes the common one, a card filed or rewritten there, show at once. A burst of events
 * (a rename, a commit) is one call of `changed`. Undefined when the folder cannot be watched.
 */
function watchFolder(
  box: Box,
  cards: ReturnType<typeof watchCards>,
  logger: SlotLogger,
  changed: () => void,
): FSWatcher | undefined {
  try {
    let soon: NodeJS.Timeout | undefined;
    const folderWatch = watch(box.paths.questionsDir, (_event, name) => {
      cards.changed(name ?? undefined);
      if (soon !== undefined) return;
      soon = setTimeout(() => {
        soon = undefined;
        changed();
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
