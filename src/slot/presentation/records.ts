// The presentations and parks in the ledger: which question holds the decision slot, where it
// was shown, and what closed it. Only the slot writes here. At most one presentation is open
// (queued = claimed, not yet sent; presented = sent, its address saved): a unique index keeps
// two processes from both holding the slot.

import type { Db } from "../../ledger/ledger.ts";

export type PresentationState = "queued" | "presented" | "resolved" | "parked" | "superseded";

export interface Presentation {
  seq: number;
  questionId: string;
  surface: string;
  state: PresentationState;
  chatId: string | undefined;
  messageId: string | undefined;
  cardHash: string;
  createdAt: string;
  presentedAt: string | undefined;
  closedAt: string | undefined;
  outcome: string | undefined;
  /** The process whose screen shows it, for a surface that lives only as long as its process. */
  holder: string | undefined;
  /** The deadline it showed (ISO time); undefined for presentations made before it was kept. */
  deadline: string | undefined;
  /** A second showing (another surface) of this presentation of the slot's; undefined for one. */
  secondOf: number | undefined;
}

/** Where a bridge showed a presentation: a chat and a message in it. */
export interface Address {
  chatId: string;
  messageId: string;
}

/** A presentations row as a Presentation (undefined for no row). */
export function fromRow(row: Record<string, unknown> | undefined): Presentation | undefined {
  if (!row) return undefined;
  const text = (v: unknown) => (v === null || v === undefined ? undefined : String(v));
  return {
    seq: row.seq as number,
    questionId: row.question_id as string,
    surface: row.surface as string,
    state: row.state as PresentationState,
    chatId: text(row.chat_id),
    messageId: text(row.message_id),
    cardHash: row.card_hash as string,
    createdAt: row.created_at as string,
    presentedAt: text(row.presented_at),
    closedAt: text(row.closed_at),
    outcome: text(row.outcome),
    holder: text(row.holder),
    deadline: text(row.deadline),
    secondOf: (row.second_of as number | null) ?? undefined,
  };
}

export class PresentationStore {
  constructor(private readonly db: Db) {}

  /** The open presentation (queued or presented) that holds the slot, if any. */
  open(): Presentation | undefined {
    return fromRow(
      this.db
        .prepare(
          "SELECT * FROM presentations WHERE state IN ('queued', 'presented') AND second_of IS NULL",
        )
        .get() as Record<string, unknown> | undefined,
    );
  }

  get(seq: number): Presentation | undefined {
    return fromRow(
      this.db.prepare("SELECT * FROM presentations WHERE seq = ?").get(seq) as
        | Record<string, unknown>
        | undefined,
    );
  }

  /** The presentation a message shows, for replies that quote it. */
  byMessage(surface: string, chatId: string, messageId: string): Presentation | undefined {
    return fromRow(
      this.db
        .prepare(
          "SELECT * FROM presentations WHERE surface = ? AND chat_id = ? AND message_id = ? ORDER BY seq DESC LIMIT 1",
        )
        .get(surface, chatId, messageId) as Record<string, unknown> | undefined,
    );
  }

  /**
   * The presentation shown last before a message of that chat: a chat's message ids grow with
   * time, so this is what was on screen when that message was written.
   */
  shownBefore(surface: string, chatId: string, messageId: number): Presentation | undefined {
    return fromRow(
      this.db
        .prepare(
          "SELECT * FROM presentations WHERE surface = ? AND chat_id = ? AND CAST(message_id AS INTEGER) < ? ORDER BY CAST(message_id AS INTEGER) DESC LIMIT 1",
        )
        .get(surface, chatId, messageId) as Record<string, unknown> | undefined,
    );
  }

  /** Every presentation a question has had, oldest first. */
  forQuestion(questionId: string): Presentation[] {
    return (
      this.db
        .prepare("SELECT * FROM presentations WHERE question_id = ? ORDER BY seq")
        .all(questionId) as Record<string, unknown>[]
    ).map((row) => fromRow(row) as Presentation);
  }

  /**
   * Claims the slot for a question; undefined when another presentation holds it. `holder` is
   * the claiming process, for a surface whose screen dies with it.
   */
  claim(
    questionId: string,
    surface: string,
    cardHash: string,
    at: string,
    holder?: string,
    deadline?: string,
  ): number | undefined {
    try {
      const result = this.db
        .prepare(
          "INSERT INTO presentations (question_id, surface, state, card_hash, created_at, holder, deadline) VALUES (?, ?, 'queued', ?, ?, ?, ?)",
        )
        .run(questionId, surface, cardHash, at, holder ?? null, deadline ?? null);
      return Number(result.lastInsertRowid);
    } catch (error) {
      if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") return undefined;
      throw error;
    }
  }

  /** A claimed presentation was sent: it is presented at this address. */
  presented(seq: number, address: Address, at: string): void {
    this.db
      .prepare(
        "UPDATE presentations SET state = 'presented', chat_id = ?, message_id = ?, presented_at = ? WHERE seq = ? AND state = 'queued'",
      )
      .run(address.chatId, address.messageId, at, seq);
  }

  /** A claim that was never sent is dropped: the question is simply queued again. */
  release(seq: number): void {
    this.db.prepare("DELETE FROM presentations WHERE seq = ? AND state = 'queued'").run(seq);
  }

  /** Closes an open presentation; false when it was not open any more (someone else closed it). */
  close(
    seq: number,
    state: "resolved" | "parked" | "superseded",
    outcome: string,
    at: string,
  ): boolean {
    const result = this.db
      .prepare(
        "UPDATE presentations SET state = ?, outcome = ?, closed_at = ? WHERE seq = ? AND state IN ('queued', 'presented')",
      )
      .run(state, outcome, at, seq);
    return result.changes === 1;
  }

  /** The options a multi-select's presentation shows picked, in the options' order. */
  picks(seq: number): string[] {
    const row = this.db.prepare("SELECT picks FROM presentations WHERE seq = ?").get(seq) as
      | { picks: string | null }
      | undefined;
    return row?.picks ? row.picks.split(",") : [];
  }

  /** Sets the picks of an open presentation (the judge's toggle); false when it is closed. */
  setPicks(seq: number, picks: readonly string[]): boolean {
    const result = this.db
      .prepare(
        "UPDATE presentations SET picks = ? WHERE seq = ? AND state IN ('queued', 'presented')",
      )
      .run(picks.length > 0 ? picks.join(",") : null, seq);
    return result.changes === 1;
  }

  park(questionId: string, at: string): void {
    this.db
      .prepare(
        `INSERT INTO parks (question_id, parked_at, seq)
         VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM parks))
         ON CONFLICT(question_id) DO UPDATE SET parked_at = excluded.parked_at, seq = excluded.seq`,
      )
      .run(questionId, at);
  }

  unpark(questionId: string): void {
    this.db.prepare("DELETE FROM parks WHERE question_id = ?").run(questionId);
  }

  /**
   * Closed presentations on these surfaces whose message still shows the question: the edit
   * saying what closed them failed or never ran. Oldest first, at most `maxTries` attempts each.
   */
  untold(surfaces: string[], maxTries: number): Presentation[] {
    if (surfaces.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT * FROM presentations
         WHERE state NOT IN ('queued', 'presented') AND message_id IS NOT NULL
           AND told_at IS NULL AND tell_tries < ? AND surface IN (${surfaces.map(() => "?").join(", ")})
         ORDER BY seq`,
      )
      .all(maxTries, ...surfaces) as Record<string, unknown>[];
    return rows.map((row) => fromRow(row) as Presentation);
  }

  told(seq: number, at: string): void {
    this.db.prepare("UPDATE presentations SET told_at = ? WHERE seq = ?").run(at, seq);
  }

  tellFailed(seq: number): void {
    this.db.prepare("UPDATE presentations SET tell_tries = tell_tries + 1 WHERE seq = ?").run(seq);
  }

  /** Forgets the parks of the questions `stillPending` denies (closed-elsewhere.ts). */
  forgetClosedParks(stillPending: (questionId: string) => boolean): void {
    for (const id of this.parked()) if (!stillPending(id)) this.unpark(id);
  }

  /** Parked question ids, in the order they were parked. */
  parked(): string[] {
    return (
      this.db.prepare("SELECT question_id FROM parks ORDER BY seq").all() as {
        question_id: string;
      }[]
    ).map((r) => r.question_id);
  }
}
