// Before `serve` starts anything: the box directory must exist or be makeable, and be writable
// (its root, its .git and its .qbridge state), or start-up stops with one sentence naming
// QBRIDGE_BOX and the fix instead of failing later inside git or SQLite: exit 4, the box is
// unusable, as every command says of a read-only box.

import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BoxError } from "../errors.ts";

function probe(dir: string): void {
  const path = join(dir, `.qbridge-write-check-${process.pid}`);
  writeFileSync(path, "");
  rmSync(path, { force: true });
}

/** mkdir -p, with the real reason: a recursive mkdir on a read-only parent says only ENOENT. */
function makeDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" && existsSync(dirname(dir))) {
      mkdirSync(dir);
    }
    throw error;
  }
}

export function checkBoxWritable(boxDir: string): void {
  try {
    if (!existsSync(boxDir)) makeDir(boxDir);
    for (const dir of [boxDir, join(boxDir, ".git"), join(boxDir, ".qbridge")]) {
      if (existsSync(dir)) probe(dir);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new BoxError(
      `QBRIDGE_BOX ${boxDir} is not a writable directory (${code}): make it writable for the user running qbridge, or point QBRIDGE_BOX (or --box) at a directory that is`,
    );
  }
}
