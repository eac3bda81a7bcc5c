// Finding what is wrong with a box, and repairing what is safe to repair: the journals of
// writers that died, locks nobody holds, leftover job files, staged files, unreadable cards,
// git's own health, a git index.lock left behind, the ledger's integrity, and when the aging
// sweep last ran. Checks of the other layers (the slot's presentations, a bridge's reachability)
// are passed in by the CLI, so this file knows no slot and no chat service.
// Repair never discards a card edit someone made by hand; it names those for a person.

import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { journalPaths, pendingJournals, recover } from "../box/commit.ts";
import { withCommitLock } from "../box/commit-lock.ts";
import { isValidId, JOB_SUFFIX, JOBS_DIR } from "../box/paths.ts";
import type { Core } from "./core.ts";
import { examineGit, rebuildIndex } from "./doctor-git.ts";
import { boxState } from "./state.ts";
import { refuseOnReadOnly, withQuestionLock } from "./transition.ts";

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
    | "git-index"
    | "sweep"
    | "stuck-presentation"
    | "telegram"
    | "webhook";
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
  const git = await examineGit(core);
  findings.push(...git.findings);
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
  // Git's view of the files, unless git could not give it (reported above).
  for (const file of git.status ?? []) {
    const rel = file.path;
    // A temporary file of an interrupted write (its writer died mid-write) is its to remove.
    if (interrupted.has(rel.replace(/\.\d+\.tmp$/, ""))) continue;
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
  if (findings.some((f) => f.repairable)) refuseOnReadOnly(core);
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
      case "git-index":
        await rebuildIndex(box);
        break;
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
