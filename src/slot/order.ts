// The queue order of the slot: pending questions in slot order (priority, earliest expiry,
// oldest), with parked ones behind all the rest in the order they were parked. The card index
// keeps each card's sort key (questions/sort-key.ts), so a list comes out of the ledger in this order already.
// A question an agent waits on (a hook's permission, form or question, or request_permission:
// a card with `kind`) dies in minutes with its asker: it goes before every ordinary question,
// whatever their priority, and takes the slot from an ordinary one (operations.ts).

import { isAgentPrompt } from "../card/question.ts";
import { beforeDeadline } from "../questions/deadline.ts";
import type { QuestionView } from "../questions/state.ts";

export interface Queue {
  /** Pending and not parked, in slot order: what the slot presents on its own. */
  ready: QuestionView[];
  /** Pending and parked, oldest park first: presented only when asked for (/next). */
  parked: QuestionView[];
}

export function queueOrder(pending: QuestionView[], parkedIds: string[]): Queue {
  const parkedSet = new Set(parkedIds);
  const byId = new Map(pending.map((q) => [q.id, q]));
  const unparked = pending.filter((q) => !parkedSet.has(q.id));
  return {
    ready: [
      ...unparked.filter((q) => isAgentPrompt(q.card)),
      ...unparked.filter((q) => !isAgentPrompt(q.card)),
    ],
    parked: parkedIds.map((id) => byId.get(id)).filter((q): q is QuestionView => q !== undefined),
  };
}

/**
 * What the slot may show now, in its order: questions past their deadline left out (the next
 * sweep expires them; nobody is asked them any more), those put off with Later left out until
 * they come back, parked ones last. `live`: pending and before their deadline, put off or not.
 */
export function dueQueue(
  pending: QuestionView[],
  at: Date,
  putOff: ReadonlySet<string>,
  parkedIds: string[],
): Queue & { live: QuestionView[] } {
  const live = pending.filter((q) => beforeDeadline(q.card, at));
  const { ready, parked } = queueOrder(live, parkedIds);
  const due = (q: QuestionView) => !putOff.has(q.id);
  return { live, ready: ready.filter(due), parked: parked.filter(due) };
}
