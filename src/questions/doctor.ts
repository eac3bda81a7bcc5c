// Finding what is wrong with a box, and repairing what is safe to repair: the journals of
// writers that died, locks nobody holds, leftover job files, staged files, unreadable cards,
// git's own health, a git index.lock left behind, the ledger's integrity, and when the aging
// sweep last ran. Checks of the other layers (the slot's presentations, a bridge's reachability)
// are passed in by the CLI, so this file knows no slot and no chat service.
// Repair never discards a card edit someone made by hand; it names those for a person.

import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { journalPaths, pendingJournals, recover } from "../box/commit.ts";
import { gitLockFiles, withCommitLock } from "../box/commit-lock.ts";
import { statusEntries } from "../box/git-status.ts";
import { isValidId, JOB_SUFFIX, JOBS_DIR } from "../box/paths.ts";
import type { Core } from "./core.ts";
import { boxState } from "./state.ts";
import { withQuestionLock } from "./transition.ts";

export interface Finding {
  kind:
    | "unreadable-card"
    | "interrupted-write"
    | "stale-lock"
    | "stray-job"
    | "dirty-index"
    | "ledger"
    | "git"
    | "index-lock"
    | "git-lock"
    | "sweep"
    | "stuck-presentation"
    | "telegram";
  path: string;
  problem: string;
  fix: string;
  repairable: boolean;
  repaired?: boolean;
  /** The safe fix of a finding made by a passed-in check (not printed). */
  apply?: () => Promise<void> | void;
}

/** A check another layer passes in: the slot's presentations, a bridge's reachability. */
export interface DoctorCheck {
  /** What it looks at, for progress. */
  label: string;
  /** Its findings (repairable ones carry `apply`) and lines of what it saw that is fine. */
  examine(core: Core): Promise<{ findings: Finding[]; facts: string[] }>;
}

export interface ExamineOptions {
  checks?: DoctorCheck[];
  /** Told after each step: steps done, steps in all. */
  onProgress?: ((done: number, total: number) => void) | undefined;
  /** Filled with lines of what was seen that is fine (the last sweep, the bot's name). */
  facts?: string[];
  /** The sweep interval `serve` uses, in minutes: a sweep older than 3 of them is reported. */
  sweepMinutes?: number;
}

export async function examineBox(core: Core, options: ExamineOptions = {}): Promise<Finding[]> {
  const findings: Finding[] = [];
  const facts = options.facts ?? [];
  const checks = options.checks ?? [];
  const total = 5 + checks.length;
  let done = 0;
  const step = () => options.onProgress?.(++done, total);
  const { box } = core;
  findings.push(...(await examineGit(core)));
  step();
  const state = boxState(core);
  step();
  for (const bad of state.unreadable) {
    findings.push({
      kind: "unreadable-card",
      path: bad.rel,
      problem: bad.reason,
      fix: "edit the file so it is a valid card (see README: card format), or remove it with git rm",
      repairable: false,
    });
  }
  // Files an interrupted write touched are its own to settle (kept if committed, else put
  // back): reporting them again as uncommitted changes would advise committing a half-write.
  const interrupted = new Set<string>();
  for (const key of pendingJournals(box)) {
    for (const rel of journalPaths(box, key)) interrupted.add(rel);
    findings.push({
      kind: "interrupted-write",
      path: `.qbridge/journal/${key}.json`,
      problem: `a write to question "${key}" was interrupted before it was committed or undone`,
      fix: "qbridge doctor --repair finishes it (keeps it if it was committed, else puts the files back)",
      repairable: true,
    });
  }
  if (existsSync(box.paths.locksDir)) {
    for (const name of readdirSync(box.paths.locksDir)) {
      if (!name.endsWith(".lock")) continue;
      const age = Date.now() - statSync(join(box.paths.locksDir, name)).mtimeMs;
      if (age > box.locks.staleMs) {
        findings.push({
          kind: "stale-lock",
          path: `.qbridge/locks/${name}`,
          problem: `a lock not refreshed for ${Math.round(age / 1000)} s: its holder is gone`,
          fix: "qbridge doctor --repair removes it (the next writer would also take it over)",
          repairable: true,
        });
      }
    }
  }
  step();
  const answered = new Set(
    state.archive.filter((v) => v.card.status === "answered").map((v) => v.id),
  );
  // No optional locks: a doctor killed midway must not leave an index.lock of its own.
  for (const file of await statusEntries(box, ["_bookkeeping"])) {
    const rel = file.path;
    if (interrupted.has(rel)) continue;
    const isJob = rel.startsWith(`${JOBS_DIR}/`) && rel.endsWith(JOB_SUFFIX);
    const id = isJob ? rel.slice(JOBS_DIR.length + 1, -JOB_SUFFIX.length) : undefined;
    if (isJob && id && isValidId(id) && !answered.has(id) && file.index === "?") {
      findings.push({
        kind: "stray-job",
        path: rel,
        problem: `an uncommitted follow-up job for question "${id}", which is not answered: left by an interrupted answer`,
        fix: "qbridge doctor --repair removes it; answering the question again writes it anew",
        repairable: true,
      });
      continue;
    }
    const staged = file.index !== " " && file.index !== "?";
    findings.push({
      kind: "dirty-index",
      path: rel,
      problem: staged
        ? "staged but not committed"
        : file.index === "?"
          ? "not committed (untracked)"
          : "changed but not committed",
      fix: staged
        ? "qbridge doctor --repair unstages it (the file itself is kept); then commit or discard it by hand"
        : `review it, then "git -C ${box.paths.root} add ${rel} && git commit", or discard it with git checkout`,
      repairable: staged,
    });
  }
  step();
  const integrity = safeIntegrity(core);
  if (integrity !== "ok") {
    findings.push({
      kind: "ledger",
      path: ".qbridge/ledger.sqlite",
      problem: `the ledger fails its integrity check: ${integrity}`,
      fix: "stop the service and delete .qbridge/ledger.sqlite: it is rebuilt; only old buttons and nudge latches are lost",
      repairable: false,
    });
  }
  findings.push(...examineSweep(core, options.sweepMinutes ?? 10, facts));
  step();
  for (const check of checks) {
    const result = await check.examine(core);
    findings.push(...result.findings);
    facts.push(...result.facts);
    step();
  }
  return findings;
}

/** Git answers for the box, HEAD is a commit, the object store is whole, no index.lock left. */
async function examineGit(core: Core): Promise<Finding[]> {
  const { box } = core;
  const findings: Finding[] = [];
  const gitFix = `look at "git -C ${box.paths.root} fsck"; restore the box from its remote or a backup if it is damaged`;
  try {
    await box.git.raw(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
  } catch {
    findings.push({
      kind: "git",
      path: ".git",
      problem: "the box's git repository has no readable HEAD commit",
      fix: gitFix,
      repairable: false,
    });
    return findings;
  }
  // fsck prints what it finds (missing or broken objects); simple-git does not always reject
  // on its exit status, so any output is the finding.
  let damage: string;
  try {
    damage = await box.git.raw(["fsck", "--no-progress", "--connectivity-only", "--no-dangling"]);
  } catch (error) {
    damage = String((error as Error).message ?? error) || "git fsck failed";
  }
  if (damage.trim()) {
    findings.push({
      kind: "git",
      path: ".git",
      problem: `git fsck finds the repository damaged: ${damage.trim().split("\n")[0]}`,
      fix: gitFix,
      repairable: false,
    });
  }
  findings.push(...examineGitLocks(core));
  return findings;
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
      } satisfies Finding;
    });
}

/** When the aging sweep last ran; long ago means no `serve` sweeps this box. */
function examineSweep(core: Core, sweepMinutes: number, facts: string[]): Finding[] {
  const last = core.ledger.getMeta("last-sweep");
  if (!last) {
    facts.push(
      "aging sweep: never ran on this box (qbridge serve runs it; qbridge age runs it once)",
    );
    return [];
  }
  const ageMs = core.box.clock.now().getTime() - new Date(last).getTime();
  const minutes = Math.max(0, Math.round(ageMs / 60_000));
  if (ageMs > Math.max(3 * sweepMinutes, 60) * 60_000) {
    return [
      {
        kind: "sweep",
        path: ".qbridge/ledger.sqlite",
        problem: `the aging sweep last ran at ${last} (${minutes} min ago): nothing expires or nudges meanwhile`,
        fix: "start qbridge serve (it sweeps every QBRIDGE_SWEEP_MINUTES), or run qbridge age from cron",
        repairable: false,
      },
    ];
  }
  facts.push(`aging sweep: last ran at ${last} (${minutes} min ago)`);
  return [];
}

function safeIntegrity(core: Core): string {
  try {
    return core.ledger.integrity();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export async function repairBox(core: Core, findings: Finding[]): Promise<Finding[]> {
  const { box } = core;
  for (const finding of findings) {
    if (!finding.repairable) continue;
    if (finding.apply) {
      await finding.apply();
      finding.repaired = true;
      continue;
    }
    switch (finding.kind) {
      case "interrupted-write": {
        const key = finding.path.slice(".qbridge/journal/".length, -".json".length);
        if (isValidId(key)) await withQuestionLock(core, key, async () => undefined);
        else await recover(box, key);
        break;
      }
      case "stale-lock":
        rmSync(join(box.paths.root, finding.path), { recursive: true, force: true });
        break;
      case "stray-job": {
        const id = finding.path.slice(JOBS_DIR.length + 1, -JOB_SUFFIX.length);
        await withQuestionLock(core, id, async () => {
          rmSync(join(box.paths.root, finding.path), { force: true });
        });
        break;
      }
      case "dirty-index":
        // Under the commit lock: a reset beside a writer's add would race its index.lock.
        await withCommitLock(box, () => box.git.raw(["reset", "--quiet", "--", finding.path]));
        break;
      case "index-lock":
      case "git-lock":
        // A dead qbridge git's locks are cleared by taking the commit lock, which knows them;
        // an older lock of someone else's git is removed as its finding says.
        await withCommitLock(box, async () => undefined);
        rmSync(join(box.paths.root, finding.path), { force: true });
        break;
      default:
        continue;
    }
    finding.repaired = true;
  }
  return findings;
}
