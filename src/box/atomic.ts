// Writing one file so that a reader sees the old or the new content, never half of one, and
// (durable, the default) so that what was written survives a power cut once the call returns:
// the file's data is flushed before the rename, and the folder after it, since a rename lives
// in the folder and is lost with it otherwise. It never follows a symbolic link: the temporary
// file is made new (a link planted at its name is removed, never written through), and a path
// that is itself a link is refused, never replaced. The file it replaces keeps its mode and
// owner.

import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  type Stats,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { InvalidInput } from "../errors.ts";

export interface WriteOptions {
  /** Flush the file and its folder to the disk before returning (default true). */
  durable?: boolean;
  /** Told once the data is in the temporary file, before the rename (a named write step). */
  written?: () => void;
  /**
   * The file whose mode and owner the new file takes (a backup takes its original's); by
   * default the file it replaces, and a new file the umask's mode.
   */
  sameAs?: string;
}

const NEW_FILE =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** What is at `path` now, without following a link; undefined when nothing is. */
function existing(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Refuses a path that is a symbolic link: writing it would replace the link or its target. */
export function refuseLink(path: string, stats = existing(path)): void {
  if (stats?.isSymbolicLink()) {
    throw new InvalidInput(
      `${path} is a symbolic link, and qbridge never writes through one: put the file itself there (or remove the link), then try again; nothing was changed`,
    );
  }
}

/** Gives the new file the mode and owner of `old`, the file it replaces or is made like. */
function keepModeAndOwner(fd: number, old: Stats | undefined): void {
  if (!old) return;
  fchmodSync(fd, old.mode & 0o7777);
  const made = fstatSync(fd);
  if (made.uid !== old.uid || made.gid !== old.gid) fchownSync(fd, old.uid, old.gid);
}

/** Writes `path` through a new temporary file and a rename. */
export function writeAtomic(
  path: string,
  content: string | Buffer,
  options: WriteOptions = {},
): void {
  const durable = options.durable ?? true;
  const folder = dirname(path);
  mkdirSync(folder, { recursive: true });
  const old = existing(path);
  refuseLink(path, old);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    // A leftover of a dead writer with this pid, or a link planted at the name: unlinked,
    // never opened; the new file is then made exclusively, so no link is followed.
    rmSync(temp, { force: true });
    const fd = openSync(temp, NEW_FILE, 0o666);
    try {
      keepModeAndOwner(fd, options.sameAs === undefined ? old : lstatSync(options.sameAs));
      const data = typeof content === "string" ? Buffer.from(content) : content;
      for (let at = 0; at < data.length; ) at += writeSync(fd, data, at, data.length - at);
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    options.written?.();
    renameSync(temp, path);
  } catch (error) {
    // A full disk leaves a partial temp file behind; it must not linger as an untracked file.
    rmSync(temp, { force: true });
    // A failed write(2) names no file; say which one, so the error can name the folder.
    if (!(error instanceof InvalidInput)) (error as NodeJS.ErrnoException).path ??= temp;
    throw error;
  }
  if (durable) syncFolder(folder);
}

/** Flushes a folder's entries (a rename or a removal in it) to the disk. */
export function syncFolder(folder: string): void {
  const fd = openSync(folder, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A file's text, or null when there is no such file. */
export function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
