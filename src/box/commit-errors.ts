// A failed write or commit, translated into one sentence a person can act on: what was wrong
// (read-only, full disk, denied, a git lock, git's own words) and whether anything changed.

import { statfsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { BoxError } from "../errors.ts";
import type { Box } from "./box.ts";
import { gitRefused } from "./git.ts";

export function asBoxError(box: Box, error: unknown, undone: boolean): Error {
  if (error instanceof BoxError) return error;
  const next = undone
    ? "nothing was changed, try again once that is fixed"
    : 'the undo is unfinished, run "qbridge doctor --repair" once that is fixed';
  return new BoxError(`the change could not be committed (${faultOf(box, error)}); ${next}`);
}

/** The cause of a failed write or commit, in words a person can act on. */
export function faultOf(box: Box, error: unknown): string {
  const { code, path } = error as NodeJS.ErrnoException;
  const text = error instanceof Error ? error.message : String(error);
  const where = path ? ` (${relative(box.paths.root, dirname(path)) || "."})` : "";
  if (code === "EROFS") return `the file system is read-only${where}`;
  if (code === "ENOSPC" || code === "EDQUOT" || /out of diskspace|no space left/i.test(text)) {
    return `the disk is full${where}`;
  }
  if (code === "EACCES" || code === "EPERM") return `permission to write was denied${where}`;
  if (/index\.lock'?: File exists/.test(text)) {
    return "git's index is locked (.git/index.lock exists: another git command is running, or one died and left it)";
  }
  const refLock = /cannot lock ref '([^']+)'|Unable to create '[^']*?(\.git\/[^']+\.lock)'/.exec(
    text,
  );
  if (refLock) {
    return `git's ${refLock[1] ?? refLock[2]} is locked (a .lock file in .git exists: another git command is running, or one died and left it; "qbridge doctor" names it)`;
  }
  const first = (text.split("\n").find((line) => line.trim() !== "") ?? text).trim();
  // Git does not always say so when the disk is full: a COMMIT_EDITMSG it could not write
  // reads back empty, and it reports "empty commit message". Ask the file system instead.
  if (gitRefused(error) && gitDiskFull(box)) return "the disk is full (.git)";
  return gitRefused(error) ? `git refused it: ${first}` : first;
}

/** Less than 64 KiB left where git writes: no commit can land there. */
function gitDiskFull(box: Box): boolean {
  try {
    const space = statfsSync(join(box.paths.root, ".git"));
    return space.bavail * space.bsize < 64 * 1024;
  } catch {
    return false;
  }
}
