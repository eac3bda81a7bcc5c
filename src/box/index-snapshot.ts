// Git's index as it was before a commit's `git add`, kept so that a failed commit leaves
// nothing staged. It is a hard link: saving and putting it back need no disk space, so a full
// disk (where `git reset` cannot write a new index) still gets the index back. Used only
// under the commit lock, where no other git of ours writes the index.

import { linkSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Box } from "./box.ts";
import { unstage } from "./commit-lock.ts";

const SAVED = "qbridge-index-before";

/** Links the current index aside; undefined when there is none to keep. */
export function saveIndex(box: Box): string | undefined {
  const gitDir = join(box.paths.root, ".git");
  const saved = join(gitDir, SAVED);
  rmSync(saved, { force: true });
  try {
    linkSync(join(gitDir, "index"), saved);
    return saved;
  } catch {
    return undefined;
  }
}

/**
 * Puts the saved index back (git always replaces the index by a rename, so the link still
 * holds the old one); without a saved index, unstages `rels`. False when neither worked.
 */
export async function putIndexBack(
  box: Box,
  saved: string | undefined,
  rels: string[],
): Promise<boolean> {
  if (saved) {
    try {
      renameSync(saved, join(box.paths.root, ".git", "index"));
      return true;
    } catch {
      // Fall back to unstaging the paths one by one.
    }
  }
  try {
    await unstage(box, rels);
    return true;
  } catch {
    return false;
  }
}

export function dropSavedIndex(saved: string | undefined): void {
  if (saved) rmSync(saved, { force: true });
}
