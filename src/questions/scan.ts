// Finding the question cards of a box, fast: every card file is stat'ed, and only those whose
// stamp differs from the card index's (src/ledger/card-index.ts) are read again; the index
// then lists them all in slot order. Cards that fail to parse are listed with their reason.
// In a process that watches the box (serve, chat), a scan skips the walk while no card folder
// changed (watchCards).

import type { Stats } from "node:fs";
import { lstatSync, statSync } from "node:fs";
import type { Box } from "../box/box.ts";
import { type CardEntry, listCardFiles, listCardFilesIn, listedEntry } from "../box/card-files.ts";
import type { Status } from "../card/question.ts";
import {
  type IndexedCard,
  type IndexStamp,
  indexedCards,
  indexedRelOf,
  indexStamps,
  keepIndexCurrent,
  updateIndex,
} from "../ledger/card-index.ts";
import type { Ledger } from "../ledger/ledger.ts";
import { slotSortKey } from "../slot/order.ts";

/**
 * Every question card of the box, fresh: changed files are re-read and the index updated.
 * With `status`, only entries of that status are returned (unreadable ones are always kept).
 */
export function scanQuestions(box: Box, ledger: Ledger, status?: Status): CardEntry[] {
  freshenIndex(box, ledger);
  return indexedCards(ledger, status);
}

/** Brings the card index up to the files (as scanQuestions does) without listing the cards. */
export function freshenIndex(box: Box, ledger: Ledger): void {
  keepIndexCurrent(ledger);
  const look = lookNeeded(box);
  if (look !== "none") walkCards(box, ledger, look === "subfolders");
}

/** Where the card with this id is (box-relative), in any subfolder; undefined if nowhere. */
export function findCardRel(box: Box, ledger: Ledger, id: string): string | undefined {
  freshenIndex(box, ledger);
  return indexedRelOf(ledger, id);
}

/**
 * A watched box's card folders as the last walk found them. While a watcher (the slot of
 * `serve` or `chat`) observes the questions folder, a scan whose folders all kept their
 * modification time skips the walk: every card written by qbridge, git or an editor that
 * saves by renaming changes its folder's time, and the watcher marks an in-place edit of the
 * top folder. A walk of the subfolders at least every FULL_WALK_MS catches an in-place edit
 * there, which no watcher tells (node watches no subfolder on Linux). Without it, a serve over
 * 10,000 cards stat'ed every card every second and kept ~100 MB of heap busy with the garbage.
 * The top folder, where the cards usually all are, is walked whole only every TOP_WALK_MS, in
 * case the watcher missed an event: a minute's walk of all 10,000 made ~10 MB of garbage, which
 * kept an idle service's memory going up and down.
 */
interface Quiet {
  /** Folder (absolute) -> its modification time at the last walk; undefined: walk next time. */
  folders: Map<string, number> | undefined;
  /** When the last walk (whole, or of the subfolders) started. */
  walkedAt: number;
  /** When the last whole walk started. */
  wholeWalkAt: number;
  /** Changes the watcher told; one told during a walk makes that walk untrusted. */
  told: number;
}

const watched = new WeakMap<Box, Quiet>();

/** Cards read anew are recorded in the index this many at a time. */
const INDEX_BATCH = 25;

/** A walk of the subfolders at least this often, whatever the folders say. */
export const FULL_WALK_MS = 60_000;
/** A whole walk, top folder included, at least this often, whatever the watcher says. */
export const TOP_WALK_MS = 600_000;
/**
 * A folder changed this recently before the walk may change again within the same tick of
 * the file system's clock, its time unchanged: such a walk is not trusted (as git treats a
 * racily clean index).
 */
const RACY_MS = 1_000;

/** What a watcher of the box's questions folder tells the scan. */
export interface CardWatch {
  /** Something changed in the questions folder: the next scan walks. */
  changed(): void;
  /** The watcher stopped (or failed): every scan walks again. */
  stop(): void;
}

/** Lets scans of `box` in this process skip the walk while its folders are unchanged. */
export function watchCards(box: Box): CardWatch {
  const quiet: Quiet = { folders: undefined, walkedAt: 0, wholeWalkAt: 0, told: 0 };
  watched.set(box, quiet);
  return {
    changed() {
      quiet.folders = undefined;
      quiet.told += 1;
    },
    stop() {
      if (watched.get(box) === quiet) watched.delete(box);
    },
  };
}

/** What a scan must walk: nothing (a watched box, quiet), the subfolders, or every card. */
function lookNeeded(box: Box): "none" | "subfolders" | "whole" {
  const quiet = watched.get(box);
  if (!quiet?.folders) return "whole";
  const now = Date.now();
  if (now - quiet.wholeWalkAt > TOP_WALK_MS) return "whole";
  for (const [folder, mtimeMs] of quiet.folders) {
    const stat = statSync(folder, { throwIfNoEntry: false });
    if (stat?.mtimeMs !== mtimeMs) return "whole";
  }
  // The top folder alone (the usual box): no subfolder to walk.
  const subfolders = quiet.folders.size > 1;
  return subfolders && now - quiet.walkedAt > FULL_WALK_MS ? "subfolders" : "none";
}

/**
 * Stats the cards (`subfolders`: only those below the top folder, whose folders the last walk
 * found unchanged) and reads again the ones whose stamp changed.
 */
function walkCards(box: Box, ledger: Ledger, subfolders = false): void {
  const quiet = watched.get(box);
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
    const size = info.size;
    if (row && row[1] === String(info.mtimeMs) && row[2] === size) continue;
    const entry = listedEntry(box, rel);
    if (!entry) continue;
    const { unread, ...card } = entry;
    changed.push({
      card: { ...card, sortKey: slotSortKey(card.id, card.card) },
      // A card the disk failed to give gets a stamp no file has, so the next scan tries again.
      stamp: { mtime: unread ? "unread" : String(info.mtimeMs), size },
    });
    // Recorded as it goes: a first scan of 10,000 cards never holds them all parsed at once
    // (that grew a service's heap by ~100 MB, slow to give back).
    if (changed.length >= INDEX_BATCH) {
      updateIndex(ledger, changed, []);
      changed = [];
    }
  }
  updateIndex(ledger, changed, [...known.keys()]);
  if (quiet && watched.get(box) === quiet && quiet.told === told) {
    const stamps = new Map<string, number>();
    for (const folder of folders) {
      const mtimeMs = statSync(folder, { throwIfNoEntry: false })?.mtimeMs;
      if (mtimeMs === undefined || mtimeMs > walkedAt - RACY_MS) return;
      stamps.set(folder, mtimeMs);
    }
    quiet.folders = stamps;
    quiet.walkedAt = walkedAt;
    if (!subfolders) quiet.wholeWalkAt = walkedAt;
  }
}
