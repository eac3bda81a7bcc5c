// The presenters this process runs, and which open presentation is this process's to act on.
// A presentation on a surface whose screen dies with its process (a terminal) belongs to the
// one process that holds it: two chats on one box never answer each other's question, and a
// chat that quit or was killed is recognised as gone, so its presentation is taken over.

import { createHolderLease, type HolderLease, holderGone } from "./holder.ts";
import type { Presenter } from "./presentation/presenter.ts";
import type { Presentation } from "./presentation/records.ts";
import type { SlotLogger } from "./slot-ops.ts";

export interface Registry {
  readonly presenters: Presenter[];
  attach(presenter: Presenter): void;
  /** The presenter of this surface in this process, if it runs one. */
  presenterFor(surface: string): Presenter | undefined;
  /** The holder to record for a presentation by this presenter (taking the lease on first use). */
  holderFor(presenter: Presenter): Promise<string | undefined>;
  /** True when this process shows the presentation and acts on it. */
  mine(presentation: Presentation): boolean;
  /** True when the presentation lives with a process that is gone (or left no holder). */
  orphaned(presentation: Presentation): boolean;
  /** Gives this process's lease up, once it shows nothing any more. */
  release(): Promise<void>;
}

export function createRegistry(locksDir: string, logger: SlotLogger): Registry {
  const presenters: Presenter[] = [];
  let lease: HolderLease | undefined;
  let held: string | undefined;
  const presenterFor = (surface: string) => presenters.find((p) => p.surface === surface);

  return {
    presenters,
    attach(presenter) {
      presenters.push(presenter);
    },
    presenterFor,
    async holderFor(presenter) {
      if (!presenter.livesWithProcess) return undefined;
      lease ??= createHolderLease(locksDir, (error) =>
        logger.warn({ err: error }, "the chat's lease on the slot was lost"),
      );
      held = await lease.acquire();
      return held;
    },
    mine(presentation) {
      const presenter = presenterFor(presentation.surface);
      if (!presenter) return false;
      if (!presenter.livesWithProcess) return true;
      return held !== undefined && presentation.holder === held;
    },
    orphaned(presentation) {
      if (presentation.holder === undefined) {
        // Recorded before holders were (or by a surface that never had one): only a process
        // that runs such a surface itself knows it cannot be anyone else's live screen.
        return presenterFor(presentation.surface)?.livesWithProcess === true;
      }
      if (presentation.holder === held) return false;
      return holderGone(locksDir, presentation.holder);
    },
    async release() {
      await lease?.release();
      held = undefined;
    },
  };
}
