// The second showings in the ledger (second.ts): a presentation of the slot's open one on
// another surface, which never holds the slot. Only the slot writes here; a first showing gets
// at most one second per surface (a unique index keeps it so).

import type { Db } from "../../ledger/ledger.ts";
import { fromRow, type Presentation } from "./records.ts";

export class SecondRecords {
  constructor(private readonly db: Db) {}

  /** Second showings still open, oldest first. */
  openSeconds(): Presentation[] {
    return (
      this.db
        .prepare(
          "SELECT * FROM presentations WHERE state IN ('queued', 'presented') AND second_of IS NOT NULL ORDER BY seq",
        )
        .all() as Record<string, unknown>[]
    ).map((row) => fromRow(row) as Presentation);
  }

  /** True when `first` was ever shown a second time on `surface`. */
  hasSecond(first: number, surface: string): boolean {
    return (
      this.db
        .prepare("SELECT 1 FROM presentations WHERE second_of = ? AND surface = ?")
        .get(first, surface) !== undefined
    );
  }

  /** Claims a second showing of `first` on `surface`, judged by the card hash `first` showed. */
  claimSecond(first: Presentation, surface: string, at: string): number {
    const result = this.db
      .prepare(
        "INSERT INTO presentations (question_id, surface, state, card_hash, created_at, deadline, second_of) VALUES (?, ?, 'queued', ?, ?, ?, ?)",
      )
      .run(first.questionId, surface, first.cardHash, at, first.deadline ?? null, first.seq);
    return Number(result.lastInsertRowid);
  }
}
