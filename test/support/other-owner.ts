// A box git takes for another user's ("dubious ownership"), as root meets the service user's
// box: the real git, told so by its own switch, through a git put first on PATH (simple-git
// passes on no GIT_TEST_* variable, and a real chown needs root).

import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A PATH whose git sees `dir` as another user's box. */
export function pathWhereGitSeesAnotherOwner(dir: string): string {
  const bin = join(dir, ".qbridge", "bin");
  mkdirSync(bin);
  const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  writeFileSync(
    join(bin, "git"),
    `#!/bin/sh\nGIT_TEST_ASSUME_DIFFERENT_OWNER=1 exec '${realGit}' "$@"\n`,
    { mode: 0o755 },
  );
  return `${bin}:${process.env.PATH}`;
}
