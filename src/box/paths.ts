// Where things live in a box, and the id rule that keeps every path inside it.

import { join, relative, resolve, sep } from "node:path";
import { InvalidId } from "../errors.ts";

export const BOOKKEEPING_DIR = "_bookkeeping";
export const QUESTIONS_DIR = `${BOOKKEEPING_DIR}/questions`;
export const JOBS_DIR = `${BOOKKEEPING_DIR}/jobs`;
export const STATE_DIR = ".qbridge";
/**
 * The only git hooks the box's own git commands run (none while it is absent): the
 * boxholder's hooks (.git/hooks, a core.hooksPath in git's config) are for their own commits.
 */
export const GIT_HOOKS_DIR = `${STATE_DIR}/git-hooks`;
export const QUESTION_SUFFIX = ".question.card";
export const JOB_SUFFIX = ".question-followup.job.card";

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$/;

/** Throws InvalidId unless the id is filename-safe: no separators, no `..`, no leading dot. */
export function checkId(id: string): string {
  if (!ID_PATTERN.test(id) || id.includes("..")) throw new InvalidId(id);
  return id;
}

export function isValidId(id: string): boolean {
  return ID_PATTERN.test(id) && !id.includes("..");
}

export class BoxPaths {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Box-relative path (with forward slashes) of a question card. */
  questionRel(id: string): string {
    return `${QUESTIONS_DIR}/${checkId(id)}${QUESTION_SUFFIX}`;
  }

  jobRel(id: string): string {
    return `${JOBS_DIR}/${checkId(id)}${JOB_SUFFIX}`;
  }

  /** Absolute path of a box-relative path; refuses anything that would leave the box. */
  abs(rel: string): string {
    const full = resolve(this.root, rel);
    const back = relative(this.root, full);
    if (back.startsWith("..") || back.startsWith(sep) || resolve(back) === back) {
      throw new InvalidId(rel);
    }
    return full;
  }

  get questionsDir(): string {
    return join(this.root, QUESTIONS_DIR);
  }

  get jobsDir(): string {
    return join(this.root, JOBS_DIR);
  }

  get stateDir(): string {
    return join(this.root, STATE_DIR);
  }

  get locksDir(): string {
    return join(this.root, STATE_DIR, "locks");
  }

  get journalDir(): string {
    return join(this.root, STATE_DIR, "journal");
  }

  get ledgerPath(): string {
    return join(this.root, STATE_DIR, "ledger.sqlite");
  }
}
