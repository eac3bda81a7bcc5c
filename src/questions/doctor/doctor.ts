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
import type { DoctorCheck, Finding, GitExamination, Seen } from "./check.ts";
import { leftoverWritesCheck, uncommittedFilesCheck, unreadableCardsCheck } from "./files.ts";
import { examineGit, gitCheck } from "./git.ts";
import { ledgerCheck } from "./ledger.ts";
import { trialCommitCheck } from "./trial-commit.ts";

export type { DoctorCheck, Finding, Seen } from "./check.ts";

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
