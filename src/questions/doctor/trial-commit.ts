// The doctor's trial commit: a commit made as the box's answers are made (the same identity and
// git settings), of HEAD's own tree, that no branch ever points to, and whose object is removed
// at once. What would refuse every answer (a name git does not accept, a full or unwritable
// object store) is named here with its fix while the other checks see a healthy box.
// Never moves a ref, never touches the index or the working tree.

import { rmSync } from "node:fs";
import { join } from "node:path";
import { commitAs } from "../../box/box.ts";
import { faultOf } from "../../box/commit-errors.ts";
import { ledgerReadOnly } from "../../ledger/open.ts";
import type { DoctorCheck } from "./check.ts";

const MESSAGE = "qbridge doctor: a trial commit, on no branch";

/** Git refusing the identity it would commit with. */
const IDENTITY_REFUSED = /disallowed characters|invalid ident|ident name|email address/i;

export const trialCommitCheck: DoctorCheck = {
  label: "a trial commit",
  async examine(core, seen) {
    const { box } = core;
    const root = box.paths.root;
    // A damaged repository is named by the git check, with its own fix.
    if ((await seen.git()).findings.length > 0) return { findings: [], facts: [] };
    if (ledgerReadOnly(box.paths.ledgerPath)) {
      return { findings: [], facts: ["trial commit: not tried, the box is read-only"] };
    }
    let sha: string;
    try {
      const tree = (await box.git.raw(["rev-parse", "HEAD^{tree}"])).trim();
      sha = (await commitAs(box, ["commit-tree", tree, "-p", "HEAD", "-m", MESSAGE])).trim();
    } catch (error) {
      const cause = faultOf(box, error);
      const fix = IDENTITY_REFUSED.test(cause)
        ? `give git a name and e-mail it accepts for the box: git -C '${root}' config user.name 'Your Name' and git -C '${root}' config user.email you@example.org (or unset them: qbridge then commits as qbridge)`
        : `fix what git says, then check with: git -C '${root}' commit-tree 'HEAD^{tree}' -p HEAD -m test (it moves no branch)`;
      return {
        findings: [
          {
            kind: "git",
            path: ".git",
            problem: `a trial commit in the box fails, so every answer fails: ${cause}`,
            fix,
            repairable: false,
          },
        ],
        facts: [],
      };
    }
    // The commit is on no branch: its loose object is removed, so the box keeps no trace of it.
    if (/^[0-9a-f]{40,64}$/.test(sha)) {
      rmSync(join(root, ".git/objects", sha.slice(0, 2), sha.slice(2)), { force: true });
    }
    return { findings: [], facts: ["trial commit: git commits in the box"] };
  },
};
