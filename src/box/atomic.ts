// Writing one file of the box so that a reader sees the old or the new content, never half of
// one, and so that what was written survives a power cut once the call returns.

import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Writes `path` through a temporary file and a rename. */
export function writeAtomic(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, content);
    renameSync(temp, path);
  } catch (error) {
    // A full disk leaves a partial temp file behind; it must not linger as an untracked file.
    rmSync(temp, { force: true });
    // A failed write(2) names no file; say which one, so the error can name the folder.
    (error as NodeJS.ErrnoException).path ??= temp;
    throw error;
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
