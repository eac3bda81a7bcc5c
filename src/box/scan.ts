// Finding the question cards of a box, fast. A card index in the ledger remembers, per file,
// its size and modification time and what parsing it gave; a scan stats every card and parses
// only those that changed. Cards that fail to parse are listed with their reason and skipped,
// never rewritten. Without a ledger every card is parsed.

import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, type Stats } from "node:fs";
import { join } from "node:path";
import { CARD_LIMITS } from "../card/codec.ts";
import { DAY_MS, parseDuration } from "../card/duration.ts";
import { parseQuestion } from "../card/load.ts";
import {
  askedFields,
  CARD_RULES_VERSION,
  INPUT_TYPES,
  PRIORITIES,
  priorityOf,
  type Question,
  STATUSES,
  type Status,
  TRANSITION_FIELDS,
} from "../card/question.ts";
import { CardReadFailed, QuestionNotFound } from "../errors.ts";
import type { Ledger } from "../ledger/ledger.ts";
import { type Box, checkCardFolders } from "./box.ts";
import { QUESTION_SUFFIX, QUESTIONS_DIR } from "./paths.ts";

export const DEFAULT_EXPIRY_MS = 30 * DAY_MS;
const PRIORITY_RANK = { high: 0, medium: 1, low: 2 } as const;

export interface CardEntry {
  id: string;
  /** Box-relative path. */
  rel: string;
  status?: Status;
  card?: Question;
  /** Why the card cannot be read, when it cannot. */
  error?: string;
  /** Slot order: priority, earliest expiry, oldest. */
  sortKey: string;
}

export function expiryMs(card: Pick<Question, "expires-after">): number {
  const override = card["expires-after"] ? parseDuration(card["expires-after"]) : undefined;
  return override ?? DEFAULT_EXPIRY_MS;
}

export function slotSortKey(id: string, card: Question): string {
  const asked = new Date(card["asked-at"]).getTime();
  const expires = new Date(asked + expiryMs(card)).toISOString();
  return `${PRIORITY_RANK[priorityOf(card)]}|${expires}|${new Date(asked).toISOString()}|${id}`;
}

/** Box-relative paths of the card files under the questions folder. A hand-rolled walk:
 * Node 20's recursive readdir is several times slower. Symlinks are listed (and refused by
 * readEntry), never followed. */
function listCardFiles(box: Box): string[] {
  checkCardFolders(box.paths);
  const rels: string[] = [];
  const walk = (dir: string, prefix: string): void => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) walk(`${dir}/${entry.name}`, `${prefix}${entry.name}/`);
      else if (entry.name.endsWith(QUESTION_SUFFIX)) rels.push(prefix + entry.name);
    }
  };
  walk(box.paths.questionsDir, `${QUESTIONS_DIR}/`);
  return rels;
}

function idOf(name: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1);
  return base.slice(0, -QUESTION_SUFFIX.length);
}

/**
 * Parses one card file into an entry; symlinks and non-files are refused, not followed. A card
 * removed meanwhile is QuestionNotFound; a disk that fails to read it is CardReadFailed: only
 * a missing file means the question is gone.
 */
export function readEntry(box: Box, rel: string, id: string, stat?: Stats): CardEntry {
  return readCardFile(box, rel, id, stat).entry;
}

/** The entry of one card file and the text it was parsed from (undefined when unread). */
export function readCard(
  box: Box,
  rel: string,
  id: string,
  stat?: Stats,
): { entry: CardEntry; text: string | undefined } {
  checkCardFolders(box.paths);
  return readCardFile(box, rel, id, stat);
}

function readFailure(rel: string, id: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return new QuestionNotFound(id);
  return new CardReadFailed(rel, code ?? (error as Error).message);
}

function readCardFile(
  box: Box,
  rel: string,
  id: string,
  stat?: Stats,
): { entry: CardEntry; text: string | undefined } {
  const refused = (error: string) => ({
    entry: { id, rel, error, sortKey: `9|${id}` },
    text: undefined,
  });
  const full = join(box.paths.root, rel);
  let info: Stats;
  let bytes: Buffer;
  try {
    info = stat ?? lstatSync(full);
    if (info.isSymbolicLink()) {
      return refused("it is a symbolic link; cards must be regular files in the box");
    }
    if (!info.isFile()) return refused("it is not a regular file");
    if (info.size > CARD_LIMITS.bytes) {
      return refused(`it is ${info.size} bytes, over the ${CARD_LIMITS.bytes}-byte card limit`);
    }
    bytes = readFileSync(full);
  } catch (error) {
    throw readFailure(rel, id, error);
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    // Read leniently, its bad bytes would become U+FFFD and a rewrite would change them.
    return refused("it is not UTF-8 text (cards are UTF-8)");
  }
  const parsed = parseQuestion(text);
  if (!parsed.ok) return { entry: refused(parsed.reason).entry, text };
  return {
    entry: {
      id,
      rel,
      status: parsed.card.status,
      card: parsed.card,
      sortKey: slotSortKey(id, parsed.card),
    },
    text,
  };
}

// ignoreBOM keeps a byte-order mark in the text, so a rewrite writes it back.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

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

/** The rules an index row was made under: a row made under others is never served. */
export const INDEX_RULES = createHash("sha256")
  .update(
    JSON.stringify([
      CARD_RULES_VERSION,
      STATUSES,
      PRIORITIES,
      INPUT_TYPES,
      TRANSITION_FIELDS,
      Object.keys(askedFields),
      CARD_LIMITS,
    ]),
  )
  .digest("hex")
  .slice(0, 16);
const INDEX_RULES_KEY = "card-index-rules";

/** Drops an index made under other card rules (an upgrade, or a downgrade) so all is re-read. */
function keepIndexCurrent(ledger: Ledger): void {
  if (ledger.getMeta(INDEX_RULES_KEY) === INDEX_RULES) return;
  ledger.db.transaction(() => {
    ledger.db.exec("DELETE FROM card_index");
    ledger.setMeta(INDEX_RULES_KEY, INDEX_RULES);
  })();
}

/**
 * One card of a scan: undefined when it went away meanwhile; a disk that fails to read it
 * lists it as unreadable with that reason (and `unread`, so the index never keeps that).
 */
function scanEntry(box: Box, rel: string): (CardEntry & { unread?: true }) | undefined {
  try {
    return readEntry(box, rel, idOf(rel));
  } catch (error) {
    if (error instanceof QuestionNotFound) return undefined;
    if (error instanceof CardReadFailed) {
      return { id: idOf(rel), rel, error: error.message, sortKey: `9|${idOf(rel)}`, unread: true };
    }
    throw error;
  }
}

/**
 * Every question card of the box, fresh: changed files are re-parsed and the index updated.
 * With `status`, only entries of that status are returned (unreadable ones are always kept).
 */
export function scanQuestions(box: Box, ledger: Ledger | undefined, status?: Status): CardEntry[] {
  const files = listCardFiles(box);
  if (!ledger) {
    const all = files.flatMap((rel) => scanEntry(box, rel) ?? []);
    return all.filter((e) => !status || e.status === status || e.error);
  }
  keepIndexCurrent(ledger);
  const db = ledger.db;
  const root = box.paths.root;
  // name -> [name, mtime, size] as the index holds them; what is left after the walk is gone.
  const known = new Map<string, [string, string, number]>();
  for (const row of db.prepare("SELECT name, mtime, size FROM card_index").raw().all() as [
    string,
    string,
    number,
  ][]) {
    known.set(row[0], row);
  }
  const changed: CardEntry[] = [];
  const changedStamps: { mtime: string; size: number }[] = [];
  for (const rel of files) {
    const row = known.get(rel);
    if (row) known.delete(rel);
    let info: Stats;
    try {
      info = lstatSync(`${root}/${rel}`);
    } catch {
      continue; // removed between readdir and stat: gone
    }
    const size = info.size;
    if (row && row[1] === String(info.mtimeMs) && row[2] === size) continue;
    const entry = scanEntry(box, rel);
    if (!entry) continue;
    changed.push(entry);
    // A card the disk failed to give gets a stamp no file has, so the next scan tries again.
    changedStamps.push({ mtime: entry.unread ? "unread" : String(info.mtimeMs), size });
  }
  const gone = [...known.keys()];
  if (changed.length > 0 || gone.length > 0) {
    const upsert = db.prepare(
      `INSERT INTO card_index (name, mtime, size, id, status, error, sort_key, summary)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET mtime = excluded.mtime, size = excluded.size, id = excluded.id,
         status = excluded.status, error = excluded.error, sort_key = excluded.sort_key, summary = excluded.summary`,
    );
    const remove = db.prepare("DELETE FROM card_index WHERE name = ?");
    db.transaction(() => {
      changed.forEach((entry, i) => {
        const stamp = changedStamps[i] as { mtime: string; size: number };
        upsert.run(
          entry.rel,
          stamp.mtime,
          stamp.size,
          entry.id,
          entry.status ?? null,
          entry.error ?? null,
          entry.sortKey,
          entry.card ? JSON.stringify(entry.card) : null,
        );
      });
      for (const name of gone) remove.run(name);
    })();
  }
  const rows = (
    status
      ? db
          .prepare("SELECT * FROM card_index WHERE status = ? OR status IS NULL ORDER BY sort_key")
          .all(status)
      : db.prepare("SELECT * FROM card_index ORDER BY sort_key").all()
  ) as IndexRow[];
  return rows.map((row) => {
    const entry: CardEntry = { id: row.id, rel: row.name, sortKey: row.sort_key };
    if (row.status) entry.status = row.status as Status;
    if (row.error) entry.error = row.error;
    if (row.summary) entry.card = JSON.parse(row.summary) as Question;
    return entry;
  });
}
