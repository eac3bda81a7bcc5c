// The queue order of the slot: pending questions in slot order (priority, earliest expiry,
// oldest), with parked ones behind all the rest in the order they were parked. The card index
// keeps each card's sort key, so a list comes out of the ledger in this order already.

import { priorityOf, type Question } from "../card/question.ts";
import { expiryMs } from "../questions/aging-policy.ts";
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
  return {
    ready: pending.filter((q) => !parkedSet.has(q.id)),
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

const PRIORITY_RANK = { high: 0, medium: 1, low: 2 } as const;

/**
 * A card's place in the slot as one sortable text: priority, earliest expiry, oldest, then id.
 * A card that cannot be read (no card) sorts after every readable one.
 */
export function slotSortKey(id: string, card: Question | undefined): string {
  if (!card) return `9|${id}`;
  const asked = new Date(card["asked-at"]).getTime();
  const expires = new Date(asked + expiryMs(card)).toISOString();
  return `${PRIORITY_RANK[priorityOf(card)]}|${expires}|${new Date(asked).toISOString()}|${id}`;
}
