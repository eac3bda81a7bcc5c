// Which card files a scan of a watched box must look at (serve and chat watch theirs). The
// scan (scan.ts) walks and reads; this file keeps what the watcher told and what the last look
// found, and must never read a card.

import { statSync } from "node:fs";
import type { Box } from "../box/box.ts";

/**
 * A watched box's card folders as the last walk found them. While a watcher (the slot of
 * `serve` or `chat`) observes the questions folder, a scan whose folders all kept their
 * modification time skips the walk: every card written by qbridge, git or an editor that
 * saves by renaming changes its folder's time, and the watcher marks an in-place edit of the
 * top folder. A walk of the subfolders at least every FULL_WALK_MS catches an in-place edit
 * there, which no watcher tells (node watches no subfolder on Linux). A serve must never stat
 * every card every second. The top folder, where the cards usually all are, is walked whole
 * only every TOP_WALK_MS, in case the watcher missed an event: an idle service must not walk
 * every card each minute.
 *
 * What changes in the top folder is read from the names the watcher tells, not by a walk: once
 * the folder's time is the one it had when the last name was told, those names are every change
 * up to then (inotify tells them in order). A card filed or answered costs a few stats, never a
 * walk of every card.
 * A change the watcher has not told yet changes the folder's time past that one: a whole walk.
 */
export interface Quiet {
  /** Folder (absolute) -> its modification time at the last look; undefined: walk next time. */
  folders: Map<string, number> | undefined;
  /** Names in the top folder the watcher told of since the last look. */
  names: Set<string>;
  /** The top folder's time when the last of `names` was told. */
  toldTopMtime: number | undefined;
  /** When the last walk (whole, or of the subfolders) started. */
  walkedAt: number;
  /** When the last whole walk started. */
  wholeWalkAt: number;
  /** Changes the watcher told; one told during a walk makes that walk untrusted. */
  told: number;
  /** When the watcher last told more than MOST_TOLD names between two looks. */
  burstAt: number;
}

const watched = new WeakMap<Box, Quiet>();

/** The watched state of `box`'s folders, when a watcher in this process observes them. */
export function quietOf(box: Box): Quiet | undefined {
  return watched.get(box);
}

/** More names told than this between two looks: a whole walk is as cheap, and bounds the set. */
export const MOST_TOLD = 500;
/**
 * After such a burst (a checkout, a copy of many cards), every look walks whole for this long:
 * inotify drops the events a burst makes past its queue's length, and a walk after the burst
 * finds what they would have named.
 */
export const BURST_MS = 2_000;

/** A walk of the subfolders at least this often, whatever the folders say. */
export const FULL_WALK_MS = 60_000;
/** A whole walk, top folder included, at least this often, whatever the watcher says. */
export const TOP_WALK_MS = 600_000;
/**
 * A folder changed this recently before the walk may change again within the same tick of
 * the file system's clock, its time unchanged: such a walk is not trusted (as git treats a
 * racily clean index).
 */
export const RACY_MS = 1_000;

/** What a watcher of the box's questions folder tells the scan. */
export interface CardWatch {
  /**
   * Something changed in the questions folder: the entry `name` of the top folder (the next
   * scan looks at it), or, with no name, anything (the next scan walks).
   */
  changed(name?: string): void;
  /** The watcher stopped (or failed): every scan walks again. */
  stop(): void;
}

/** Lets scans of `box` in this process skip the walk while its folders are unchanged. */
export function watchCards(box: Box): CardWatch {
  const quiet: Quiet = {
    folders: undefined,
    names: new Set(),
    toldTopMtime: undefined,
    walkedAt: 0,
    wholeWalkAt: 0,
    told: 0,
    burstAt: Number.NEGATIVE_INFINITY,
  };
  watched.set(box, quiet);
  return {
    changed(name) {
      quiet.told += 1;
      if (name === undefined || name.includes("/") || quiet.names.size >= MOST_TOLD) {
        if (quiet.names.size >= MOST_TOLD) quiet.burstAt = Date.now();
        quiet.folders = undefined;
        quiet.names.clear();
        return;
      }
      quiet.names.add(name);
      quiet.toldTopMtime = statSync(box.paths.questionsDir, { throwIfNoEntry: false })?.mtimeMs;
    },
    stop() {
      if (watched.get(box) === quiet) watched.delete(box);
    },
  };
}

/**
 * What a scan must look at: every card, or (a watched box) the names the watcher told and the
 * subfolders when their walk is due, each only when there is something to look at.
 */
export function lookNeeded(box: Box): "whole" | { told: boolean; subfolders: boolean } {
  const quiet = watched.get(box);
  if (!quiet?.folders) return "whole";
  const now = Date.now();
  if (now - quiet.wholeWalkAt > TOP_WALK_MS || now - quiet.burstAt < BURST_MS) return "whole";
  const top = box.paths.questionsDir;
  for (const [folder, mtimeMs] of quiet.folders) {
    const stat = statSync(folder, { throwIfNoEntry: false });
    if (stat?.mtimeMs === mtimeMs) continue;
    // Changed no further than the watcher has told: the names it told are the changes.
    if (folder === top && stat !== undefined && stat.mtimeMs === quiet.toldTopMtime) continue;
    return "whole";
  }
  // The top folder alone (the usual box): no subfolder to walk.
  const subfolders = quiet.folders.size > 1 && now - quiet.walkedAt > FULL_WALK_MS;
  return { told: quiet.names.size > 0, subfolders };
}
