// Whether git will work in the box for this user at all. Git trusts no repository another user
// owns ("dubious ownership"): root starting serve on the service user's box, a box copied in by
// someone else. Everything would seem to run and every answer would fail, so a long-running
// process asks once before it starts.

import { statSync } from "node:fs";
import { BoxError } from "../errors.ts";
import type { Box } from "./box.ts";

export async function checkGitTrustsBox(box: Box): Promise<void> {
  try {
    await box.git.raw(["rev-parse", "--git-dir"]);
  } catch (error) {
    // Other git failures (a damaged .git) are doctor's to name; serve starts as before.
    if (!/dubious ownership/.test(String(error))) return;
    const { root } = box.paths;
    const owner = statSync(root).uid;
    throw new BoxError(
      `git refuses the box ${root}: it is owned by another user (uid ${owner}) than the one running qbridge (uid ${process.getuid?.()}), so every answer would fail; run qbridge as the box's owner (sudo -u "#${owner}" qbridge ...), or make the box belong to this user (chown -R)`,
    );
  }
}
