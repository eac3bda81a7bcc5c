// The card index: per card file, the stamp (modification time and size) it was read at and
// what reading gave (status, error, slot sort key, the card as JSON), so a scan re-reads only
// the files that changed. Storage only: what a row says is the scan's (src/questions/scan.ts).
// Rows made under other card rules are dropped whole, never served.

import { QUESTIONS_DIR } from "../box/paths.ts";
import { CARD_LIMITS } from "../card/codec.ts";
import {
  askedFields,
  CARD_RULES_VERSION,
  INPUT_TYPES,
  PRIORITIES,
  type Question,
  STATUSES,
  type Status,
  TRANSITION_FIELDS,
} from "../card/question.ts";
import type { Ledger } from "./ledger.ts";

/** One card as the index keeps it. */
export interface IndexedCard {
  id: string;
  /** Box-relative path. */
  rel: string;
  status?: Status;
  card?: Question;
  error?: string;
  /** Slot order (src/slot/order.ts): the index lists cards sorted by it. */
  sortKey: string;
}

/** When a file was read: a file whose stamp differs is read again. */
export interface IndexStamp {
  mtime: string;
  size: number;
}

interface IndexRow {
  name: string;
  mtime: string;
  size: number;
  id: string;
  status: string | null;
  error: string | null;
  sort_key: string;
  summary: string | null;
}

/**
 * The rules an index row was made under: a row made under others is never served. Kept as the
 * rules' own text (a few hundred bytes in the ledger), not a digest of it: compared exactly,
 * and no hashing library is loaded by a command that only reads the index.
 */
export const INDEX_RULES = JSON.stringify([
  CARD_RULES_VERSION,
  STATUSES,
  PRIORITIES,
  INPUT_TYPES,
  TRANSITION_FIELDS,
  Object.keys(askedFields),
  CARD_LIMITS,
]);
const INDEX_RULES_KEY = "card-index-rules";

/** Drops an index made under other card rules (an upgrade, or a downgrade) so all is re-read. */
export function keepIndexCurrent(ledger: Ledger): void {
  if (ledger.getMeta(INDEX_RULES_KEY) === INDEX_RULES) return;
  ledger.db.transaction(() => {
    ledger.db.exec("DELETE FROM card_index");
    ledger.setMeta(INDEX_RULES_KEY, INDEX_RULES);
  })();
}

/** name -> [name, mtime, size] for every indexed file (raw rows: the scan's hot path). */
export function indexStamps(
  ledger: Ledger,
  which: "all" | "subfolders" = "all",
): Map<string, [string, string, number]> {
  const known = new Map<string, [string, string, number]>();
  // A card in a subfolder has a slash after the questions folder's own.
  const where =
    which === "all" ? "" : ` WHERE instr(substr(name, ${QUESTIONS_DIR.length + 2}), '/') > 0`;
  for (const row of ledger.db
    .prepare(`SELECT name, mtime, size FROM card_index${where}`)
    .raw()
    .all() as [string, string, number][]) {
    known.set(row[0], row);
  }
  return known;
}

/** One file's [name, mtime, size] as indexStamps gives it; undefined when it is not indexed. */
export function indexStampOf(ledger: Ledger, name: string): [string, string, number] | undefined {
  return ledger.db
    .prepare("SELECT name, mtime, size FROM card_index WHERE name = ?")
    .raw()
    .get(name) as [string, string, number] | undefined;
}

/** Records what was read anew (each card with its stamp) and forgets the files that are gone. */
export function updateIndex(
  ledger: Ledger,
  changed: { card: IndexedCard; stamp: IndexStamp }[],
  gone: string[],
): void {
  if (changed.length === 0 && gone.length === 0) return;
  const db = ledger.db;
  const upsert = db.prepare(
    `INSERT INTO card_index (name, mtime, size, id, status, error, sort_key, summary)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(name) DO UPDATE SET mtime = excluded.mtime, size = excluded.size, id = excluded.id,
       status = excluded.status, error = excluded.error, sort_key = excluded.sort_key, summary = excluded.summary`,
  );
  const remove = db.prepare("DELETE FROM card_index WHERE name = ?");
  db.transaction(() => {
    for (const { card, stamp } of changed) {
      upsert.run(
        card.rel,
        stamp.mtime,
        stamp.size,
        card.id,
        card.status ?? null,
        card.error ?? null,
        card.sortKey,
        card.card ? JSON.stringify(card.card) : null,
      );
    }
    for (const name of gone) remove.run(name);
  })();
}

/**
 * The indexed cards in slot order. With `status`, only cards of that status and the
 * unreadable ones (which have none).
 */
export function indexedCards(ledger: Ledger, status?: Status): IndexedCard[] {
  const db = ledger.db;
  const rows = (
    status
      ? db
          .prepare("SELECT * FROM card_index WHERE status = ? OR status IS NULL ORDER BY sort_key")
          .all(status)
      : db.prepare("SELECT * FROM card_index ORDER BY sort_key").all()
  ) as IndexRow[];
  return rows.map(indexedCard);
}

function indexedCard(row: IndexRow): IndexedCard {
  const entry: IndexedCard = { id: row.id, rel: row.name, sortKey: row.sort_key };
  if (row.status) entry.status = row.status as Status;
  if (row.error) entry.error = row.error;
  if (row.summary) entry.card = JSON.parse(row.summary) as Question;
  return entry;
}

/** When a closed card was closed, as SQLite reads it from the stored card (state.ts's closedAt). */
const CLOSED_AT = `coalesce(${[
  "answered-at",
  "dismissed-at",
  "expired-at",
  "withdrawn-at",
  "asked-at",
]
  .map((field) => `json_extract(summary, '$."${field}"')`)
  .join(", ")})`;

/** How many readable cards the index holds closed (not pending). */
/** The readable cards: parsed, and not one of two cards with one id (both are unreadable). */
export const READABLE = `summary IS NOT NULL
  AND id NOT IN (SELECT id FROM card_index GROUP BY id HAVING count(*) > 1)`;

export function closedCount(ledger: Ledger): number {
  return ledger.db
    .prepare(`SELECT count(*) FROM card_index WHERE ${READABLE} AND status != 'pending'`)
    .pluck()
    .get() as number;
}

/**
 * One page of the readable closed cards, most recently closed first (then by id): only the
 * page's own cards are read out of the index and parsed.
 */
export function closedPage(ledger: Ledger, offset: number, limit: number): IndexedCard[] {
  const rows = ledger.db
    .prepare(
      `SELECT * FROM card_index WHERE ${READABLE} AND status != 'pending'
       ORDER BY ${CLOSED_AT} DESC, id LIMIT ? OFFSET ?`,
    )
    .all(limit, offset) as IndexRow[];
  return rows.map(indexedCard);
}

/** The box-relative path of the card with this id (the first in slot order), if indexed. */
export function indexedRelOf(ledger: Ledger, id: string): string | undefined {
  const row = ledger.db
    .prepare("SELECT name FROM card_index WHERE id = ? ORDER BY sort_key LIMIT 1")
    .raw()
    .get(id) as [string] | undefined;
  return row?.[0];
}

/** The ids more than one indexed card file carries, each with those files' paths, sorted. */
export function indexedDuplicates(ledger: Ledger): Map<string, string[]> {
  const rows = ledger.db
    .prepare(
      `SELECT id, name FROM card_index WHERE id IN
         (SELECT id FROM card_index GROUP BY id HAVING count(*) > 1) ORDER BY id, name`,
    )
    .raw()
    .all() as [string, string][];
  const byId = new Map<string, string[]>();
  for (const [id, name] of rows) byId.set(id, [...(byId.get(id) ?? []), name]);
  return byId;
}

/** What the stats read of a card (src/questions/stats.ts); the rest is never parsed. */
const DIGEST_FIELDS = [
  "status",
  "prompt",
  "asked-at",
  "answered-at",
  "dismissed-at",
  "expired-at",
  "withdrawn-at",
  "asked-by",
  "answered-via",
] as const;

export type CardDigest = Pick<Question, (typeof DIGEST_FIELDS)[number]> & {
  learning?: { ref?: string };
};

/**
 * The readable cards' digests in slot order, each with its id. SQLite picks the fields out of
 * the stored JSON: a whole-box figure never parses every card in JavaScript.
 */
export function indexedDigests(ledger: Ledger): { id: string; card: CardDigest }[] {
  const paths = [...DIGEST_FIELDS.map((f) => `'$."${f}"'`), "'$.learning.ref'"].join(", ");
  const rows = ledger.db
    .prepare(
      `SELECT id, json_extract(summary, ${paths}) FROM card_index
       WHERE ${READABLE} ORDER BY sort_key`,
    )
    .raw()
    .all() as [string, string][];
  return rows.map(([id, picked]) => {
    const values = JSON.parse(picked) as (string | null)[];
    const card: Record<string, unknown> = {};
    DIGEST_FIELDS.forEach((field, i) => {
      const value = values[i];
      if (value !== null && value !== undefined) card[field] = value;
    });
    const ref = values[DIGEST_FIELDS.length];
    if (ref !== null && ref !== undefined) card.learning = { ref };
    return { id, card: card as CardDigest };
  });
}
