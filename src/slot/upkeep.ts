// What the slot's watcher does on each tick before it reconciles: this process's presence
// record is kept in step with the surfaces that deliver through it (presence.ts: what a hook
// reads to know somebody can be reached), and the questions of hooks that are gone are
// withdrawn (hook-lease.ts). Either failing is logged; the tick goes on.

import type { Core } from "../questions/core.ts";
import { withdrawForGoneHooks } from "./hook-lease.ts";
import { holdPresence, reachesBoxholder } from "./presence.ts";
import type { Reach } from "./reach.ts";
import type { Registry } from "./registry.ts";
import type { SlotLogger } from "./slot-ops.ts";

export interface Upkeep {
  /** Updates the presence record and withdraws gone hooks' questions. */
  tick(): Promise<void>;
  /** Removes the presence record: this process presents nothing any more. */
  stop(): Promise<void>;
}

/**
 * The surfaces this process shows questions on now to someone who may answer a hook's: ready,
 * not refusing messages, and not read by an asker only (a piped chat).
 */
function delivering(registry: Registry, reach: Reach): string[] {
  return registry.presenters
    .filter((p) => p.ready() && !reach.refusing(p.surface) && reachesBoxholder(p))
    .map((p) => p.surface);
}

export function createUpkeep(deps: {
  core: Core;
  registry: Registry;
  reach: Reach;
  logger: SlotLogger;
}): Upkeep {
  const { core, registry, reach, logger } = deps;
  const presence = holdPresence(core.box.paths.locksDir, (error) =>
    logger.warn({ err: error }, "the presence record's lease was lost; taken again next tick"),
  );
  return {
    async tick() {
      try {
        await presence.update(delivering(registry, reach));
      } catch (error) {
        logger.warn({ err: error }, "could not record which surfaces deliver");
      }
      await withdrawForGoneHooks(core, logger);
    },
    stop: () => presence.release(),
  };
}
