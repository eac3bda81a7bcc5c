// What the ask advice reads of the card index (src/questions/ask-advice.ts): only the fields it
// uses, of only the cards that can count. It must never read every card's whole digest.

import { type CardDigest, READABLE } from "./card-index.ts";
import type { Ledger } from "./ledger.ts";

/** The fields a time to answer is read from. */
export type AnswerTimes = Pick<CardDigest, "status" | "asked-at" | "answered-at">;

/**
 * The readable answered cards, each as the digest of its two times, in no particular order.
 * The index's status column is the card's own (only a card that was read has one).
 */
export function answeredTimes(ledger: Ledger): AnswerTimes[] {
  const rows = ledger.db
    .prepare(
      `SELECT json_extract(summary, '$."asked-at"'), json_extract(summary, '$."answered-at"')
       FROM card_index WHERE status = 'answered' AND ${READABLE}`,
    )
    .raw()
    .all() as [string, string | null][];
  return rows.map(([askedAt, answeredAt]) => {
    const card: AnswerTimes = { status: "answered", "asked-at": askedAt };
    if (answeredAt !== null) card["answered-at"] = answeredAt;
    return card;
  });
}

/** The prompts of the readable cards closed without an answer (dismissed or expired). */
export function unansweredPrompts(ledger: Ledger): string[] {
  return ledger.db
    .prepare(
      `SELECT json_extract(summary, '$.prompt') FROM card_index
       WHERE status IN ('dismissed', 'expired') AND ${READABLE}`,
    )
    .pluck()
    .all() as string[];
}
