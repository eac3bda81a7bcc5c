// A card's place in the slot's order as one sortable text, kept by the card index so a list
// comes out of the ledger in slot order already (src/slot/order.ts orders the queue with it).

import { priorityOf, type Question } from "../card/question.ts";
import { expiryMs } from "./aging-policy.ts";

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
