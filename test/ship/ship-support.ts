// What the ship tests stand on: fresh directories, and the qbridge command run in them as a
// real child process (test/support/child.ts).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dirs: string[] = [];

/** An empty directory, as a fresh checkout's working directory would be for `npm start`. */
export function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "qbridge-ship-"));
  dirs.push(dir);
  return dir;
}

export function removeFreshDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export { type Child, qbridge, qbridgeRun } from "../support/child.ts";
