// Finding the question cards of a box, fast: every card file is stat'ed, and only those whose
// stamp differs from the card index's (src/ledger/card-index.ts) are read again; the index
// then lists them all in slot order. Cards that fail to parse are listed with their reason.

import type { Stats } from "node:fs";
import { lstatSync } from "node:fs";
import type { Box } from "../box/box.ts";
import { type CardEntry, listCardFiles, listedEntry } from "../box/card-files.ts";
import type { Status } from "../card/question.ts";
import {
  type IndexedCard,
  type IndexStamp,
  indexedCards,
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
  const files = listCardFiles(box);
  keepIndexCurrent(ledger);
  const root = box.paths.root;
  // What is left in `known` after the walk is gone.
  const known = indexStamps(ledger);
  const changed: { card: IndexedCard; stamp: IndexStamp }[] = [];
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
  }
  updateIndex(ledger, changed, [...known.keys()]);
  return indexedCards(ledger, status);
}
