// The doctor's checks of the box's git repository: HEAD, the object store, the index, and the
// lock files git left. A damaged repository is reported with its fix, never an "unexpected
// failure": when git cannot read the box, the checks that need git's view of the files are
// skipped (and say so through the finding), the rest of the doctor still runs.

import { readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { gitLockFiles, withCommitLock } from "../../box/commit-lock.ts";
import { type StatusEntry, statusEntries } from "../../box/git-status.ts";
import type { Core } from "../core.ts";
import type { DoctorCheck, Finding, GitExamination } from "./check.ts";

/** How git says its index file is damaged. */
const INDEX_DAMAGE = /index file (corrupt|smaller)|bad signature|bad index/i;

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text.split("\n").map((line) => line.trim());
  return lines.find((line) => /^(fatal|error):/.test(line)) ?? lines.find(Boolean) ?? text;
}

/** The branch HEAD should name: the only one there, else main. */
function branchOf(root: string): string {
  try {
    const branches = readdirSync(join(root, ".git/refs/heads"));
    return branches.length === 1 ? (branches[0] as string) : "main";
  } catch {
    return "main";
  }
}

/** What is wrong with .git/HEAD itself, if anything: git reads nothing while it is garbage. */
function headFileProblem(core: Core): Finding | undefined {
  const { root } = core.box.paths;
  let text: string;
  try {
    text = readFileSync(join(root, ".git/HEAD"), "utf8");
  } catch (error) {
    text = `(unreadable: ${firstLine(error)})`;
  }
  if (/^ref: refs\/\S+\n?$/.test(text) || /^[0-9a-f]{40}\n?$/.test(text)) return undefined;
  const branch = branchOf(root);
  return {
    kind: "git",
    path: ".git/HEAD",
    problem:
      "git's HEAD file is damaged (it names neither a branch nor a commit), so git cannot read the box and every answer fails",
    fix: `printf 'ref: refs/heads/${branch}\\n' > '${join(root, ".git/HEAD")}' points it back at the branch (safe: it changes no commit); then check "git -C ${root} log -1" shows the last answer`,
    repairable: false,
  };
}

/** Git's health as a check; the git status it read serves the check of uncommitted files. */
export const gitCheck: DoctorCheck = {
  label: "git",
  async examine(_core, seen) {
    return { findings: (await seen.git()).findings, facts: [] };
  },
};

/** HEAD, the object store, the index, and git's lock files. */
export async function examineGit(core: Core): Promise<GitExamination> {
  const head = headFileProblem(core);
  if (head) return { findings: [head, ...examineGitLocks(core)] };
  const noCommit = await headCommitProblem(core);
  if (noCommit) return noCommit;
  const findings: Finding[] = [];
  const damage = await fsckDamage(core);
  // A corrupt index makes fsck fail too; the index's own finding below says how to rebuild it.
  if (damage && !INDEX_DAMAGE.test(damage)) {
    findings.push({
      kind: "git",
      path: ".git",
      problem: `git fsck finds the repository damaged: ${damage.split("\n")[0]}`,
      fix: fsckFix(core.box.paths.root),
      repairable: false,
    });
  }
  const { status, problem } = await examineStatus(core, damage !== "");
  if (problem) findings.push(problem);
  findings.push(...examineGitLocks(core));
  return status ? { findings, status } : { findings };
}

/** The fix for a damaged repository: look with fsck, restore from a remote or a backup. */
function fsckFix(root: string): string {
  return `look at "git -C ${root} fsck"; restore the box from its remote or a backup if it is damaged`;
}

/** When git reads no HEAD commit, the whole examination: why, and what to do; else undefined. */
async function headCommitProblem(core: Core): Promise<GitExamination | undefined> {
  const root = core.box.paths.root;
  try {
    await core.box.git.raw(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
    return undefined;
  } catch (error) {
    // Not damage: git trusts no repository another user owns (doctor run as root on the
    // service's box, a box copied in by another user). Restoring a backup would not help.
    if (/dubious ownership/.test(String(error))) {
      const owner = statSync(root).uid;
      const refused: Finding = {
        kind: "git",
        path: ".git",
        problem: `git refuses the box: it is owned by another user (uid ${owner}) than the one running qbridge (uid ${process.getuid?.()}), so every answer from this user fails`,
        fix: `run qbridge as the box's owner (sudo -u "#${owner}" qbridge ...), or make the box belong to the user that runs the service (chown -R); to let this user in anyway: git config --global --add safe.directory '${root}'`,
        repairable: false,
      };
      return { findings: [refused] };
    }
    const unreadable: Finding = {
      kind: "git",
      path: ".git",
      problem: "the box's git repository has no readable HEAD commit",
      fix: fsckFix(root),
      repairable: false,
    };
    return { findings: [unreadable, ...examineGitLocks(core)] };
  }
}

/** What git fsck finds wrong with the object store, trimmed; "" when it finds nothing. */
async function fsckDamage(core: Core): Promise<string> {
  // fsck prints what it finds (missing or broken objects); simple-git does not always reject
  // on its exit status, so any output is the finding.
  let damage: string;
  try {
    damage = await core.box.git.raw([
      "fsck",
      "--no-progress",
      "--connectivity-only",
      "--no-dangling",
    ]);
  } catch (error) {
    damage = firstLine(error) || "git fsck failed";
  }
  return damage.trim();
}

/**
 * Git's status of _bookkeeping, or why git cannot read it: a corrupt index (repairable), or
 * any other failure unless fsck already found the damage (`damaged`).
 */
async function examineStatus(
  core: Core,
  damaged: boolean,
): Promise<{ status?: StatusEntry[]; problem?: Finding }> {
  const { box } = core;
  const root = box.paths.root;
  try {
    return { status: await statusEntries(box, ["_bookkeeping"]) };
  } catch (error) {
    const reason = firstLine(error);
    if (INDEX_DAMAGE.test(reason)) {
      return {
        problem: {
          kind: "git-index",
          path: ".git/index",
          problem: `git's index is corrupt (${reason}): every answer fails until it is rebuilt`,
          fix: `qbridge doctor --repair rebuilds it from the last commit (it keeps the damaged one as .git/index.corrupt-*; your files are untouched, only changes staged and not committed are unstaged); by hand: mv '${join(root, ".git/index")}' '${join(root, ".git/index.corrupt")}' && git -C '${root}' reset`,
          repairable: true,
          apply: () => rebuildIndex(box),
        },
      };
    }
    if (damaged) return {};
    return {
      problem: {
        kind: "git",
        path: ".git",
        problem: `git cannot read the box's files: ${reason}`,
        fix: fsckFix(root),
        repairable: false,
      },
    };
  }
}

/** Moves a corrupt index aside and rebuilds it from HEAD, under the commit lock. */
async function rebuildIndex(box: Core["box"]): Promise<void> {
  await withCommitLock(box, async () => {
    const index = join(box.paths.root, ".git/index");
    renameSync(index, `${index}.corrupt-${Date.now()}`);
    await box.git.raw(["reset", "--quiet"]);
  });
}

/**
 * Git's lock files left in .git. One a qbridge git left when it died under the commit lock is
 * provably nobody else's (the commit lock's marker): the next commit removes it, and so does
 * repair. Another one old enough that no running git can hold it is reported with the command
 * that removes it; a fresh one belongs to a git that is running now, and is not a problem.
 */
function examineGitLocks(core: Core): Finding[] {
  const { box } = core;
  return gitLockFiles(box)
    .filter((lock) => lock.deadQbridgeGit || lock.ageMs > box.locks.staleMs)
    .map((lock) => {
      const seconds = Math.round(lock.ageMs / 1000);
      const blocks =
        lock.rel === ".git/index.lock"
          ? "every commit fails"
          : "every commit (or ref update) fails";
      return {
        kind: lock.rel === ".git/index.lock" ? "index-lock" : "git-lock",
        path: lock.rel,
        problem: lock.deadQbridgeGit
          ? `git's ${lock.rel} was left by a qbridge git that was killed while it ran; the next answer removes it`
          : `git's ${lock.rel} is ${seconds} s old: a git process died holding it, and ${blocks} until it is gone`,
        fix: lock.deadQbridgeGit
          ? `qbridge doctor --repair removes it now (safe: .qbridge/locks/commit.git-running shows the qbridge git that made it died, and no process holds the commit lock)`
          : `rm '${join(box.paths.root, lock.rel)}' (or qbridge doctor --repair) removes it; safe only when no git command is running in this box (git holds a lock for milliseconds, this one is ${seconds} s old, so its git most likely died; it was not qbridge's, so check for a git someone started by hand)`,
        repairable: true,
        // A dead qbridge git's locks are cleared by taking the commit lock, which knows them;
        // an older lock of someone else's git is removed as its finding says.
        apply: async () => {
          await withCommitLock(box, async () => undefined);
          rmSync(join(box.paths.root, lock.rel), { force: true });
        },
      } satisfies Finding;
    });
}
