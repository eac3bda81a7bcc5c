// The answer webhooks' outbox in the ledger: what is owed to whom, tried until a 2xx or until
// the give-up window has passed. Only rows: the sending is in delivery.ts. A row is made once
// per transition and receiver (a second enqueue of the same key and URL is ignored), so a
// transition recorded twice (a dead writer's journal finished) is still delivered once.

import type { Ledger } from "../ledger/ledger.ts";

export interface Delivery {
  seq: number;
  /** The idempotency key: "<question id>:<status>". */
  key: string;
  url: string;
  /** The JSON text POSTed: the outcome at the transition. */
  body: string;
  createdAt: string;
  tries: number;
  nextTryAt: number;
  lastError: string | undefined;
  deliveredAt: string | undefined;
  gaveUpAt: string | undefined;
}

function delivery(row: Record<string, unknown>): Delivery {
  return {
    seq: row.seq as number,
    key: row.key as string,
    url: row.url as string,
    body: row.body as string,
    createdAt: row.created_at as string,
    tries: row.tries as number,
    nextTryAt: row.next_try_at as number,
    lastError: (row.last_error as string | null) ?? undefined,
    deliveredAt: (row.delivered_at as string | null) ?? undefined,
    gaveUpAt: (row.gave_up_at as string | null) ?? undefined,
  };
}

/** Owes `body` to `url` under `key`; false when that key was already owed to that URL. */
export function enqueueDelivery(
  ledger: Ledger,
  entry: { key: string; url: string; body: string; createdAt: string; nextTryAt: number },
): boolean {
  const result = ledger.db
    .prepare(
      `INSERT OR IGNORE INTO webhook_deliveries (key, url, body, created_at, next_try_at)
       VALUES (@key, @url, @body, @createdAt, @nextTryAt)`,
    )
    .run(entry);
  return result.changes === 1;
}

/** Deliveries still owed whose next try is due at `nowMs` (wall time), oldest first. */
export function dueDeliveries(ledger: Ledger, nowMs: number, limit = 20): Delivery[] {
  return (
    ledger.db
      .prepare(
        `SELECT * FROM webhook_deliveries
         WHERE delivered_at IS NULL AND gave_up_at IS NULL AND next_try_at <= ?
         ORDER BY next_try_at, seq LIMIT ?`,
      )
      .all(nowMs, limit) as Record<string, unknown>[]
  ).map(delivery);
}

/** When the next owed delivery is due (wall time, ms), or undefined when nothing is owed. */
export function nextDueAt(ledger: Ledger): number | undefined {
  const row = ledger.db
    .prepare(
      `SELECT MIN(next_try_at) AS at FROM webhook_deliveries
       WHERE delivered_at IS NULL AND gave_up_at IS NULL`,
    )
    .get() as { at: number | null };
  return row.at ?? undefined;
}

export function markDelivered(ledger: Ledger, seq: number, at: string): void {
  ledger.db
    .prepare(
      "UPDATE webhook_deliveries SET delivered_at = ?, tries = tries + 1, last_error = NULL WHERE seq = ?",
    )
    .run(at, seq);
}

/**
 * Takes a due delivery for one try: moves its next try to `leaseUntil`, unless another sender
 * took it first (its next try is no longer the one read). A sender that dies mid-try leaves
 * the lease to run out, and the delivery is tried again.
 */
export function claimDelivery(
  ledger: Ledger,
  seq: number,
  readNextTryAt: number,
  leaseUntil: number,
): boolean {
  const result = ledger.db
    .prepare(
      `UPDATE webhook_deliveries SET next_try_at = ?
       WHERE seq = ? AND next_try_at = ? AND delivered_at IS NULL AND gave_up_at IS NULL`,
    )
    .run(leaseUntil, seq, readNextTryAt);
  return result.changes === 1;
}

/** A failed try (or, with `counted` false, one abandoned by a stop): owed again at `nextTryAt`. */
export function markFailed(
  ledger: Ledger,
  seq: number,
  error: string,
  nextTryAt: number,
  counted = true,
): void {
  ledger.db
    .prepare(
      "UPDATE webhook_deliveries SET tries = tries + ?, last_error = ?, next_try_at = ? WHERE seq = ?",
    )
    .run(counted ? 1 : 0, error === "" ? null : error, nextTryAt, seq);
}

/** Owes a delivery that gave up once more, for a new window from `at`. */
export function retryGivenUp(ledger: Ledger, seq: number, at: string, nextTryAt: number): void {
  ledger.db
    .prepare(
      "UPDATE webhook_deliveries SET gave_up_at = NULL, created_at = ?, next_try_at = ? WHERE seq = ?",
    )
    .run(at, nextTryAt, seq);
}

export function markGivenUp(ledger: Ledger, seq: number, at: string, error?: string): void {
  ledger.db
    .prepare(
      "UPDATE webhook_deliveries SET gave_up_at = ?, last_error = COALESCE(?, last_error) WHERE seq = ?",
    )
    .run(at, error ?? null, seq);
}

/** Every delivery, newest first (for tests and doctor). */
export function allDeliveries(ledger: Ledger): Delivery[] {
  return (
    ledger.db.prepare("SELECT * FROM webhook_deliveries ORDER BY seq DESC").all() as Record<
      string,
      unknown
    >[]
  ).map(delivery);
}

/** Deliveries that gave up, newest first: what `qbridge doctor` lists. */
export function givenUpDeliveries(ledger: Ledger): Delivery[] {
  return (
    ledger.db
      .prepare("SELECT * FROM webhook_deliveries WHERE gave_up_at IS NOT NULL ORDER BY seq DESC")
      .all() as Record<string, unknown>[]
  ).map(delivery);
}
