// Writing one file of the box so that a reader sees the old or the new content, never half of
// one, and (durable, the default) so that what was written survives a power cut once the call
// returns: the file's data is flushed before the rename, and the folder after it, since a
// rename lives in the folder and is lost with it otherwise.

import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";

export interface WriteOptions {
  /** Flush the file and its folder to the disk before returning (default true). */
  durable?: boolean;
  /** Told once the data is in the temporary file, before the rename (a named write step). */
  written?: () => void;
}

/** Writes `path` through a temporary file and a rename. */
export function writeAtomic(
  path: string,
  content: string | Buffer,
  options: WriteOptions = {},
): void {
  const durable = options.durable ?? true;
  const folder = dirname(path);
  mkdirSync(folder, { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(temp, "w");
    try {
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
    (error as NodeJS.ErrnoException).path ??= temp;
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
