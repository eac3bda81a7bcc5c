// What a doctor check is and what it finds: the types doctor.ts runs and each check (git.ts,
// files.ts, ledger.ts, and the ones other layers pass in) builds. Types only.

import type { StatusEntry } from "../../box/git-status.ts";
import type { Core } from "../core.ts";
import type { BoxState } from "../state.ts";

/** What the box's own checks find, by kind. */
export type BoxFindingKind =
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
  | "webhook";

/** A bridge's check names its findings by its surface ("telegram"): the core lists no surface. */
export type SurfaceName = string & {};

export interface Finding {
  kind: BoxFindingKind | SurfaceName;
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

export interface GitExamination {
  findings: Finding[];
  /** The changed files under _bookkeeping, when git could tell. */
  status?: StatusEntry[];
}
