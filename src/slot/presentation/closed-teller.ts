// Telling a bridge that a presentation closed, so its message stops looking live, and retrying
// until that lands. The edit can fail (the chat service was down) or never run (the
// acknowledgement before it failed, or the process was killed first). The ledger remembers
// each untold one; each watcher tick tries again, a bounded number of times, so a closed
// question never keeps live-looking buttons because of one bad minute or one crash. A chat that
// refuses messages (reach.ts) is told once it takes them again. Only the process that runs the
// surface tells it.

import type { Question } from "../../card/question.ts";
import type { Reach } from "../reach.ts";
import type { Registry } from "../registry.ts";
import type { SlotLogger } from "../slot-ops.ts";
import { closureOf, PARKED, SET_ASIDE } from "./closure.ts";
import { ChatRefuses, type Closure } from "./presenter.ts";
import type { Presentation, PresentationStore } from "./records.ts";

const MAX_TELL_TRIES = 30;

export interface ClosedTeller {
  /** Updates the closed presentation's message; on failure it stays untold for a retry. */
  tell(presentation: Presentation, closure: Closure): Promise<void>;
  /** Retries every untold presentation on this process's surfaces, oldest first. */
  tellUntold(): Promise<void>;
}

export function createClosedTeller(deps: {
  presentations: PresentationStore;
  registry: Registry;
  logger: SlotLogger;
  now: () => string;
  load: (questionId: string) => Question | undefined;
  reach: Reach;
}): ClosedTeller {
  const { presentations, registry, logger, now, load, reach } = deps;

  async function tell(presentation: Presentation, closure: Closure): Promise<void> {
    const { surface } = presentation;
    const presenter = registry.presenterFor(surface);
    if (!presenter || presentation.messageId === undefined) return;
    // A chat that refuses messages does not use up the tries: told once it takes them again.
    if (!reach.open(surface)) return;
    try {
      await presenter.closed(presentation, closure);
      presentations.told(presentation.seq, now());
      reach.reached(surface);
    } catch (error) {
      if (error instanceof ChatRefuses) return reach.refused(surface, error);
      presentations.tellFailed(presentation.seq);
      logger.warn(
        { err: error, question: presentation.questionId },
        "could not update a closed presentation",
      );
    }
  }

  return {
    tell,
    async tellUntold() {
      const surfaces = registry.presenters.map((p) => p.surface);
      for (const closed of presentations.untold(surfaces, MAX_TELL_TRIES)) {
        const card = load(closed.questionId);
        const closure =
          closed.state === "parked"
            ? { ...PARKED, card }
            : closed.outcome === SET_ASIDE.text
              ? { ...SET_ASIDE, card }
              : closureOf(card);
        await tell(closed, closure);
      }
    },
  };
}
