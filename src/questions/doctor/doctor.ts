// Finding what is wrong with a box, and repairing what is safe to repair. This file runs the
// checks and applies their repairs; each check, built in or passed in, finds its own problems
// and carries its own repair (`apply`). Built in: git's health (doctor-git.ts), the box's files
// (doctor-files.ts), the ledger and the sweep (doctor-ledger.ts). Checks of the other layers
// (the slot's presentations, a bridge's reachability) are passed in by the CLI, so this folder
// knows no slot and no chat service.
// Repair never discards a card edit someone made by hand; it names those for a person.

import type { Core } from "../core.ts";
import { type BoxState, boxState } from "../state.ts";
import { refuseOnReadOnly } from "../transition.ts";
import { leftoverWritesCheck, uncommittedFilesCheck, unreadableCardsCheck } from "./files.ts";
import { examineGit, type GitExamination, gitCheck } from "./git.ts";
import { ledgerCheck } from "./ledger.ts";
import { trialCommitCheck } from "./trial-commit.ts";

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
  /** The safe fix, on a repairable finding (not printed). */
  apply?: () => Promise<void> | void;
}

/** What several checks look at, read once per examination and only when one asks. */
export interface Seen {
  git(): Promise<GitExamination>;
  state(): BoxState;
}

/** One check: the built-in ones, or one another layer passes in (the slot, a bridge). */
export interface DoctorCheck {
  /** What it looks at, for progress. */
  label: string;
  /** Its findings (repairable ones carry `apply`) and lines of what it saw that is fine. */
  examine(core: Core, seen: Seen): Promise<{ findings: Finding[]; facts: string[] }>;
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

/** The built-in checks, in the order their findings are listed. */
function builtInChecks(sweepMinutes: number): DoctorCheck[] {
  return [
    gitCheck,
    trialCommitCheck,
    unreadableCardsCheck,
    leftoverWritesCheck,
    uncommittedFilesCheck,
    ledgerCheck(sweepMinutes),
  ];
}

export async function examineBox(core: Core, options: ExamineOptions = {}): Promise<Finding[]> {
  const findings: Finding[] = [];
  const facts = options.facts ?? [];
  const checks = [...builtInChecks(options.sweepMinutes ?? 10), ...(options.checks ?? [])];
  let git: Promise<GitExamination> | undefined;
  let state: BoxState | undefined;
  const seen: Seen = {
    git: () => {
      git ??= examineGit(core);
      return git;
    },
    state: () => {
      state ??= boxState(core);
      return state;
    },
  };
  for (const [i, check] of checks.entries()) {
    const result = await check.examine(core, seen);
    findings.push(...result.findings);
    facts.push(...result.facts);
    options.onProgress?.(i + 1, checks.length);
  }
  return findings;
}

/** Applies the safe fix of each repairable finding; a finding without one stays open. */
export async function repairBox(core: Core, findings: Finding[]): Promise<Finding[]> {
  if (findings.some((f) => f.repairable)) refuseOnReadOnly(core);
  for (const finding of findings) {
    if (!finding.repairable || !finding.apply) continue;
    await finding.apply();
    finding.repaired = true;
  }
  return findings;
}
