// `git status` of the box for readers (doctor, the health probe): run without git's optional
// locks, so a reader never writes the index, and one killed midway leaves no index.lock that
// would stop the next commit.

import type { Box } from "./box.ts";

export interface StatusEntry {
  /** Box-relative path (the new one, for a rename). */
  path: string;
  /** The index's status letter: " " unchanged, "?" untracked, else staged (A, M, D, R, ...). */
  index: string;
  /** The working tree's status letter. */
  workingDir: string;
}

/** The changed, staged and untracked files under `paths` (the whole box when empty). */
export async function statusEntries(box: Box, paths: string[] = []): Promise<StatusEntry[]> {
  const out = await box.git.raw([
    "--no-optional-locks",
    "status",
    "--porcelain",
    "-z",
    // The branch line makes git print something on a clean tree too: simple-git waits 50 ms
    // after a command that prints nothing.
    "--branch",
    "--untracked-files=all",
    "--",
    ...paths,
  ]);
  const parts = out.split("\0");
  const entries: StatusEntry[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (part.length < 4 || part.startsWith("## ")) continue;
    const index = part[0] as string;
    entries.push({ path: part.slice(3), index, workingDir: part[1] as string });
    // A rename or copy is followed by the path it came from.
    if (index === "R" || index === "C") i++;
  }
  return entries;
}
