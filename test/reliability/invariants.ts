// What the reliability suite checks after every fault, crash and race: the box read straight
// from disk and from git, never through the code under test. Also the figures each suite
// prints (operations, conflicts, faults, crashes) for docs/RELIABILITY.md.

import { existsSync, readdirSync, readFileSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { simpleGit } from "simple-git";
import { parseCardText } from "../../src/card/codec.ts";
import { JobSchema } from "../../src/card/job.ts";
import { parseQuestion } from "../../src/card/load.ts";
import type { Question } from "../../src/card/question.ts";

const QUESTIONS = "_bookkeeping/questions";
const JOBS = "_bookkeeping/jobs";
const CARD = ".question.card";
const JOB = ".question-followup.job.card";

export interface DiskCard {
  id: string;
  text: string;
  card?: Question;
  error?: string;
}

/** Every question card file on disk, parsed; a half-written file shows up with its error. */
export function diskCards(dir: string): DiskCard[] {
  const folder = join(dir, QUESTIONS);
  return readdirSync(folder)
    .filter((name) => name.endsWith(CARD))
    .sort()
    .map((name) => {
      const text = readFileSync(join(folder, name), "utf8");
      const parsed = parseQuestion(text);
      const id = name.slice(0, -CARD.length);
      return parsed.ok ? { id, text, card: parsed.card } : { id, text, error: parsed.reason };
    });
}

/** Question ids that have a follow-up job on disk, each checked to parse as a job. */
export function diskJobs(dir: string): string[] {
  const folder = join(dir, JOBS);
  return readdirSync(folder)
    .filter((name) => name.endsWith(JOB))
    .map((name) => {
      const parsed = JobSchema.safeParse(
        parseCardText(readFileSync(join(folder, name), "utf8")).data,
      );
      if (!parsed.success) throw new Error(`${name} is not a valid follow-up job`);
      return name.slice(0, -JOB.length);
    })
    .sort();
}

/** Files a write left behind half-done: temp files anywhere under _bookkeeping. */
export function tempFiles(dir: string): string[] {
  return [QUESTIONS, JOBS].flatMap((rel) =>
    readdirSync(join(dir, rel)).filter((name) => name.endsWith(".tmp")),
  );
}

/** The content of a file in HEAD, or null when HEAD has no such file. */
export function headFile(dir: string, rel: string): Promise<string | null> {
  return simpleGit(dir)
    .raw(["cat-file", "blob", `HEAD:${rel}`])
    .catch(() => null);
}

/** Subjects of all commits, oldest first, and whether every commit has at most one parent. */
export async function history(dir: string): Promise<{ subjects: string[]; linear: boolean }> {
  const out = await simpleGit(dir).raw(["log", "--reverse", "--format=%P%x09%s"]);
  const lines = out.split("\n").filter((l) => l !== "");
  return {
    subjects: lines.map((l) => l.slice(l.indexOf("\t") + 1)),
    linear: lines.every((l) => l.slice(0, l.indexOf("\t")).split(" ").filter(Boolean).length <= 1),
  };
}

/**
 * Dates every lock in the box's locks folder (and the holders' leases in it) far past any stale
 * time, as if the process that left them had died long ago: doctor reports them stale and the
 * next writer takes them over at once, instead of the test waiting out the stale time. Only for
 * locks of a dead process.
 */
export function ageLocks(dir: string): void {
  const longAgo = new Date(Date.now() - 10 * 60_000);
  const age = (folder: string) => {
    if (!existsSync(folder)) return;
    for (const name of readdirSync(folder)) utimesSync(join(folder, name), longAgo, longAgo);
  };
  age(join(dir, ".qbridge/locks"));
  age(join(dir, ".qbridge/locks/holders"));
}

/** The lock files git has in the box's .git (top level and refs/heads). */
export function gitLocks(dir: string): string[] {
  const top = readdirSync(join(dir, ".git")).filter((n) => n.endsWith(".lock"));
  const refs = readdirSync(join(dir, ".git/refs/heads")).filter((n) => n.endsWith(".lock"));
  return [...top, ...refs.map((n) => `refs/heads/${n}`)];
}

/** Waits until every lock a killed process left in the box is older than `staleMs`. */
export async function waitUntilLocksStale(dir: string, staleMs: number): Promise<void> {
  const locks = join(dir, ".qbridge/locks");
  if (!existsSync(locks)) return;
  const newest = Math.max(0, ...readdirSync(locks).map((n) => statSync(join(locks, n)).mtimeMs));
  const wait = newest + staleMs + 250 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** Figures a suite reports; printed once at the end of its file. */
export function printFigures(title: string, figures: Record<string, number>): void {
  const parts = Object.entries(figures).map(([key, value]) => `${key}=${value}`);
  process.stdout.write(`[reliability] ${title}: ${parts.join(" ")}\n`);
}
