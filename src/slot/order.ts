// The queue order of the slot: pending questions in slot order (priority, earliest expiry,
// oldest), with parked ones behind all the rest in the order they were parked.

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
