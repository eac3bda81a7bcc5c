// Finding the question cards of a box, fast: every card file is stat'ed, and only those whose
// stamp differs from the card index's (src/ledger/card-index.ts) are read again; the index
// then lists them all in slot order. Cards that fail to parse are listed with their reason.
// In a process that watches the box (serve, chat), a scan skips the walk while no card folder
// changed, and reads only the cards the watcher named (card-watch.ts).

import type { Stats } from "node:fs";
import { lstatSync, statSync } from "node:fs";
import { relative, sep } from "node:path";
import { type Box, checkCardFolders } from "../box/box.ts";
import {
  type CardEntry,
  cardIdOf,
  listCardFiles,
  listCardFilesIn,
  listedEntry,
} from "../box/card-files.ts";
import { QUESTION_SUFFIX, QUESTIONS_DIR } from "../box/paths.ts";
import type { Status } from "../card/question.ts";
import {
  type IndexedCard,
  type IndexStamp,
  indexedCards,
  indexedDuplicates,
  indexedRelOf,
  indexStampOf,
  indexStamps,
  keepIndexCurrent,
  updateIndex,
} from "../ledger/card-index.ts";
import type { Ledger } from "../ledger/ledger.ts";
import { lookNeeded, type Quiet, quietOf, RACY_MS } from "./card-watch.ts";
import type { Core } from "./core.ts";
import { slotSortKey } from "./sort-key.ts";

/**
 * Every question card of the box, fresh: changed files are re-read and the index updated.
 * With `status`, only entries of that status are returned (unreadable ones are always kept).
 */
export function scanQuestions(box: Box, ledger: Ledger, status?: Status): ScannedEntry[] {
  freshenIndex(box, ledger);
  return withoutDuplicates(indexedCards(ledger, status), duplicatesOf(ledger));
}

const duplicatesSeen = new WeakMap<Ledger, { stamp: string; ids: Map<string, string[]> }>();

/** indexedDuplicates, asked again only once the ledger changed (here or in another process). */
function duplicatesOf(ledger: Ledger): Map<string, string[]> {
  const { db } = ledger;
  const stamp = `${db.pragma("data_version", { simple: true })}:${db.prepare("SELECT total_changes()").pluck().get()}`;
  const seen = duplicatesSeen.get(ledger);
  if (seen?.stamp === stamp) return seen.ids;
  const ids = indexedDuplicates(ledger);
  duplicatesSeen.set(ledger, { stamp, ids });
  return ids;
}

/** A card as a scan lists it; `sameId`: the paths of every card carrying its id, when several do. */
export interface ScannedEntry extends CardEntry {
  sameId?: string[];
}

/** Why a card whose id other cards carry too is no question: which one is meant is unknown. */
export function sameIdReason(id: string, rels: readonly string[]): string {
  return `${rels.length} cards have the id "${id}" (${rels.join(", ")}): remove one of them, or rename one (a card's id is its file name)`;
}

/**
 * Every card whose id another card carries too, as unreadable: each of them is listed (also
 * one a status filter left out), none as a question.
 */
function withoutDuplicates(
  entries: CardEntry[],
  duplicates: Map<string, string[]>,
): ScannedEntry[] {
  if (duplicates.size === 0) return entries;
  const listed = new Set<string>();
  const broken = (id: string, rel: string): ScannedEntry => {
    listed.add(rel);
    const rels = duplicates.get(id) as string[];
    return { id, rel, error: sameIdReason(id, rels), sameId: rels };
  };
  const out = entries.map((entry) =>
    duplicates.has(entry.id) ? broken(entry.id, entry.rel) : entry,
  );
  for (const [id, rels] of duplicates) {
    for (const rel of rels) if (!listed.has(rel)) out.push(broken(id, rel));
  }
  return out;
}

/**
 * The box-relative paths of every card file named for `id`. Only the names tell: no card is
 * read. A watched box, once looked at, knows its folders and stats one name in each; any other
 * lists them all.
 */
export function cardRelsNamed(core: Pick<Core, "box" | "ledger">, id: string): string[] {
  const { box } = core;
  const name = `${id}${QUESTION_SUFFIX}`;
  // Only then the ledger: an ask opens it while git runs (a short command's ask is unwatched).
  if (quietOf(box)) freshenIndex(box, core.ledger);
  const folders = quietOf(box)?.folders;
  if (!folders) {
    // A folder's link count is 2 plus its subfolders where the file system counts them (ext4,
    // xfs, tmpfs; btrfs says 1): at 2, the top folder holds every card and one name is stat'ed.
    checkCardFolders(box.paths);
    const top = lstatSync(box.paths.questionsDir, { throwIfNoEntry: false });
    if (top?.isDirectory() && top.nlink === 2) {
      const flat = `${QUESTIONS_DIR}/${name}`;
      return lstatSync(`${box.paths.root}/${flat}`, { throwIfNoEntry: false }) ? [flat] : [];
    }
    return listCardFiles(box).filter((rel) => cardIdOf(rel) === id);
  }
  const root = box.paths.root;
  return [...folders.keys()].flatMap((folder) =>
    lstatSync(`${folder}/${name}`, { throwIfNoEntry: false })
      ? [`${relative(root, folder).split(sep).join("/")}/${name}`]
      : [],
  );
}

/** Brings the card index up to the files (as scanQuestions does) without listing the cards. */
export function freshenIndex(box: Box, ledger: Ledger): void {
  keepIndexCurrent(ledger);
  const look = lookNeeded(box);
  if (look === "whole" || (look.told && !lookAtTold(box, ledger))) walkCards(box, ledger);
  else if (look.subfolders) walkCards(box, ledger, true);
}

/** Whether a card file named for `id` is in any card folder (cardRelsNamed). */
export function cardIdTaken(core: Pick<Core, "box" | "ledger">, id: string): boolean {
  return cardRelsNamed(core, id).length > 0;
}

/** Where the card with this id is (box-relative), in any subfolder; undefined if nowhere. */
export function findCardRel(box: Box, ledger: Ledger, id: string): string | undefined {
  freshenIndex(box, ledger);
  return indexedRelOf(ledger, id);
}

/** Cards read anew are recorded in the index this many at a time. */
const INDEX_BATCH = 25;

/**
 * Reads again the cards of the top folder the watcher named, and forgets those gone. False,
 * having read nothing, when a name is a folder (new, or one the last walk knew) or cannot be
 * stat'ed: that takes a walk.
 */
function lookAtTold(box: Box, ledger: Ledger): boolean {
  const quiet = quietOf(box) as Quiet;
  const folders = quiet.folders as Map<string, number>;
  const top = box.paths.questionsDir;
  const looks: { rel: string; info: Stats | undefined }[] = [];
  for (const name of quiet.names) {
    const path = `${top}/${name}`;
    let info: Stats | undefined;
    try {
      info = lstatSync(path, { throwIfNoEntry: false });
    } catch {
      return false; // only a missing entry is gone: one the disk fails to stat takes the walk
    }
    if (folders.has(path) || info?.isDirectory()) return false;
    if (name.endsWith(QUESTION_SUFFIX)) looks.push({ rel: `${QUESTIONS_DIR}/${name}`, info });
  }
  const changed: { card: IndexedCard; stamp: IndexStamp }[] = [];
  const gone: string[] = [];
  for (const { rel, info } of looks) {
    const read = info && readAgain(box, rel, info, indexStampOf(ledger, rel));
    if (read) changed.push(read);
    else if (!info || read === null) gone.push(rel);
  }
  updateIndex(ledger, changed, gone);
  quiet.names.clear();
  const mtimeMs = statSync(top, { throwIfNoEntry: false })?.mtimeMs;
  if (mtimeMs === undefined) quiet.folders = undefined;
  else folders.set(top, mtimeMs);
  return true;
}

/**
 * The card at `rel` read again, with its stamp, unless `row` (its index row) has the stamp
 * `info` gives (undefined); null when it went away meanwhile.
 */
function readAgain(
  box: Box,
  rel: string,
  info: Stats,
  row: [string, string, number] | undefined,
): { card: IndexedCard; stamp: IndexStamp } | undefined | null {
  const size = info.size;
  if (row && row[1] === String(info.mtimeMs) && row[2] === size) return undefined;
  const entry = listedEntry(box, rel);
  if (!entry) return null;
  const { unread, ...card } = entry;
  return {
    card: { ...card, sortKey: slotSortKey(card.id, card.card) },
    // A card the disk failed to give gets a stamp no file has, so the next scan tries again.
    stamp: { mtime: unread ? "unread" : String(info.mtimeMs), size },
  };
}

/**
 * Stats the cards (`subfolders`: only those below the top folder, whose folders the last walk
 * found unchanged) and reads again the ones whose stamp changed.
 */
function walkCards(box: Box, ledger: Ledger, subfolders = false): void {
  const quiet = quietOf(box);
  const walkedAt = Date.now();
  const told = quiet?.told;
  const top = box.paths.questionsDir;
  const lastFolders = [...(quiet?.folders?.keys() ?? [])];
  if (quiet) quiet.folders = undefined;
  const folders: string[] = subfolders ? lastFolders : [];
  const files = subfolders
    ? listCardFilesIn(
        box,
        lastFolders.filter((folder) => folder !== top),
      )
    : listCardFiles(box, quiet ? folders : undefined);
  const root = box.paths.root;
  // What is left in `known` after the walk is gone.
  const known = indexStamps(ledger, subfolders ? "subfolders" : "all");
  // The walk reads every name the watcher told of the top folder as it is now.
  if (quiet && !subfolders) quiet.names.clear();
  let changed: { card: IndexedCard; stamp: IndexStamp }[] = [];
  for (const rel of files) {
    const row = known.get(rel);
    if (row) known.delete(rel);
    let info: Stats;
    try {
      info = lstatSync(`${root}/${rel}`);
    } catch {
      continue; // removed between readdir and stat: gone
    }
    const read = readAgain(box, rel, info, row);
    if (!read) continue;
    changed.push(read);
    // Recorded as it goes: a first scan must never hold every card parsed at once.
    if (changed.length >= INDEX_BATCH) {
      updateIndex(ledger, changed, []);
      changed = [];
    }
  }
  updateIndex(ledger, changed, [...known.keys()]);
  if (quiet && quietOf(box) === quiet && quiet.told === told) {
    const stamps = new Map<string, number>();
    for (const folder of folders) {
      const mtimeMs = statSync(folder, { throwIfNoEntry: false })?.mtimeMs;
      if (mtimeMs === undefined) return;
      // A subfolder changed within the walk's tick of the clock may change again unseen; the
      // top folder's changes are told by name by the watcher, whatever its time.
      if (folder !== top && mtimeMs > walkedAt - RACY_MS) return;
      stamps.set(folder, mtimeMs);
    }
    quiet.folders = stamps;
    quiet.walkedAt = walkedAt;
    if (!subfolders) quiet.wholeWalkAt = walkedAt;
  }
}
