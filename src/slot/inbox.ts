// What the bridges received: update ids already processed, and the chats that were refused once
// already. Written before a bridge acknowledges anything. (The ledger's callback_outcomes table
// is no longer written: a callback delivered again is settled by its token and the card.)

import type { Db } from "../ledger/ledger.ts";

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

  /** Records a refusal for a chat; true only the first time (the one polite refusal). */
  refuseOnce(surface: string, chatId: string, at: string): boolean {
    return (
      this.db
        .prepare("INSERT OR IGNORE INTO refused_chats (surface, chat_id, at) VALUES (?, ?, ?)")
        .run(surface, chatId, at).changes === 1
    );
  }
}
