// Until when a pending question waits before the slot shows it, as agents read it in the
// outcome's `heldUntil`: the time the boxholder put it off to ("Later"), or the end of the quiet
// hours that hold then. A question on screen now waits for nothing.

import { toIso } from "../../box/clock.ts";
import type { Question } from "../../card/question.ts";
import type { Core } from "../../questions/core.ts";
import { PresentationStore } from "../presentation/records.ts";
import { type Attention, heldUntil } from "./attention.ts";
import { LaterStore } from "./later.ts";

export type HeldUntil = (view: { id: string; card: Question }) => string | undefined;

export function heldUntilOf(core: Core, attention: Attention): HeldUntil {
  // The ledger is read for a pending question only: `qbridge show` of a closed one opens none.
  let stores: { later: LaterStore; presentations: PresentationStore } | undefined;
  return (view) => {
    if (view.card.status !== "pending") return undefined;
    stores ??= {
      later: core.ledger.store(LaterStore),
      presentations: core.ledger.store(PresentationStore),
    };
    const { later, presentations } = stores;
    if (presentations.open()?.questionId === view.id) return undefined;
    const until = heldUntil(view.card, core.box.clock.now(), attention, later.until(view.id));
    return until ? toIso(until) : undefined;
  };
}
