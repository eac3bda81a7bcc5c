// What the bridges received and how each was handled: update ids already processed, the
// outcome of every callback (replayed when the same callback comes again), and the chats that
// were refused once already. Written before a bridge acknowledges anything.

import type { Db } from "../ledger/ledger.ts";

export interface CallbackOutcome {
  callbackId: string;
  token: string | undefined;
  actor: string | undefined;
  outcome: string;
  reply: string;
  at: string;
}

export class Inbox {
  constructor(private readonly db: Db) {}

  /** True when an update was handled to the end before: a redelivery to skip. */
  wasProcessed(key: string): boolean {
    return this.db.prepare("SELECT 1 FROM processed_updates WHERE key = ?").get(key) !== undefined;
  }

  /** Marks an update processed; false when it was processed before (a redelivery). */
  firstDelivery(key: string, at: string): boolean {
    return (
      this.db
        .prepare("INSERT OR IGNORE INTO processed_updates (key, at) VALUES (?, ?)")
        .run(key, at).changes === 1
    );
  }

  callback(callbackId: string): CallbackOutcome | undefined {
    const row = this.db
      .prepare("SELECT * FROM callback_outcomes WHERE callback_id = ?")
      .get(callbackId) as Record<string, string | null> | undefined;
    if (!row) return undefined;
    return {
      callbackId,
      token: row.token ?? undefined,
      actor: row.actor ?? undefined,
      outcome: row.outcome as string,
      reply: row.reply as string,
      at: row.at as string,
    };
  }

  recordCallback(entry: CallbackOutcome): void {
    this.db
      .prepare(
        "INSERT OR IGNORE INTO callback_outcomes (callback_id, token, actor, outcome, reply, at) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(
        entry.callbackId,
        entry.token ?? null,
        entry.actor ?? null,
        entry.outcome,
        entry.reply,
        entry.at,
      );
  }

  /** Records a refusal for a chat; true only the first time (the one polite refusal). */
  refuseOnce(surface: string, chatId: string, at: string): boolean {
    return (
      this.db
        .prepare("INSERT OR IGNORE INTO refused_chats (surface, chat_id, at) VALUES (?, ?, ?)")
        .run(surface, chatId, at).changes === 1
    );
  }
}
