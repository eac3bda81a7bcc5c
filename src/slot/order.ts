// The queue order of the slot: pending questions in slot order (priority, earliest expiry,
// oldest), with parked ones behind all the rest in the order they were parked. The card index
// keeps each card's sort key, so a list comes out of the ledger in this order already.

import { priorityOf, type Question } from "../card/question.ts";
import { expiryMs } from "../questions/aging-policy.ts";
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
