// What is in the box: pending questions in slot order, the archive with recorded answers,
// the unreadable cards, and the follow-up jobs.

import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { readCardBytes } from "../box/card-files.ts";
import { JOB_SUFFIX, JOBS_DIR } from "../box/paths.ts";
import { parseCardText } from "../card/codec.ts";
import { type Job, JobSchema } from "../card/job.ts";
import type { Question, Status } from "../card/question.ts";
import { closedCount, closedPage } from "../ledger/card-index.ts";
import type { Core } from "./core.ts";
import { freshenIndex, type ScannedEntry, scanQuestions } from "./scan.ts";

export interface QuestionView {
  id: string;
  rel: string;
  card: Question;
}

export interface Unreadable {
  rel: string;
  reason: string;
  /** Set when it is unreadable because other cards carry its id: all their paths. */
  sameId?: string[];
}

export interface BoxState {
  /** Pending questions in slot order: priority, earliest expiry, oldest. */
  pending: QuestionView[];
  /** Answered, dismissed and expired questions, most recent first. */
  archive: QuestionView[];
  unreadable: Unreadable[];
}

function split(entries: ScannedEntry[]): { views: QuestionView[]; unreadable: Unreadable[] } {
  const views: QuestionView[] = [];
  const unreadable: Unreadable[] = [];
  for (const entry of entries) {
    if (entry.card) views.push({ id: entry.id, rel: entry.rel, card: entry.card });
    else {
      const bad: Unreadable = { rel: entry.rel, reason: entry.error ?? "unknown reason" };
      if (entry.sameId) bad.sameId = entry.sameId;
      unreadable.push(bad);
    }
  }
  return { views, unreadable };
}

/** When a closed question was closed: its answer, dismissal or expiry time. */
export function closedAt(
  card: Pick<Question, "asked-at" | "answered-at" | "dismissed-at" | "expired-at" | "withdrawn-at">,
): string {
  return (
    card["answered-at"] ??
    card["dismissed-at"] ??
    card["expired-at"] ??
    card["withdrawn-at"] ??
    card["asked-at"]
  );
}

export function pendingQuestions(core: Core): {
  pending: QuestionView[];
  unreadable: Unreadable[];
} {
  const { views, unreadable } = split(scanQuestions(core.box, core.ledger, "pending"));
  return { pending: views.filter((v) => v.card.status === "pending"), unreadable };
}

export function boxState(core: Core): BoxState {
  const { views, unreadable } = split(scanQuestions(core.box, core.ledger));
  const pending = views.filter((v) => v.card.status === "pending");
  const archive = views
    .filter((v) => v.card.status !== "pending")
    .sort((a, b) => closedAt(b.card).localeCompare(closedAt(a.card)) || a.id.localeCompare(b.id));
  return { pending, archive, unreadable };
}

/** How many closed questions a page of the archive lists. */
export const ARCHIVE_PAGE = 50;

/** One page of the archive: its questions, most recently closed first, and how many in all. */
export interface ArchivePage {
  views: QuestionView[];
  total: number;
}

/**
 * The archive's questions from `offset` on, at most `limit` of them: only those are read, so a
 * page costs the same at 100 closed questions as at 100,000.
 */
export function archivePage(core: Core, offset: number, limit = ARCHIVE_PAGE): ArchivePage {
  freshenIndex(core.box, core.ledger);
  const views = closedPage(core.ledger, offset, limit).map((entry) => ({
    id: entry.id,
    rel: entry.rel,
    card: entry.card as Question,
  }));
  return { views, total: closedCount(core.ledger) };
}

export function questionsWithStatus(core: Core, status: Status): QuestionView[] {
  return split(scanQuestions(core.box, core.ledger, status)).views.filter(
    (v) => v.card.status === status,
  );
}

/** "What is waiting on me?": the count and the top question alone. */
export function waiting(core: Core): { count: number; top: QuestionView | undefined } {
  const { pending } = pendingQuestions(core);
  return { count: pending.length, top: pending[0] };
}

export interface JobView {
  rel: string;
  job?: Job;
  /** The job's body: the steps to take, as the file says them (an agent reading JSON needs them too). */
  instructions?: string;
  error?: string;
  /** Why the file itself cannot be read (a link, not a regular file, over the size limit). */
  refused?: string;
}

export function listJobs(core: Core): JobView[] {
  let names: string[];
  try {
    names = readdirSync(core.box.paths.jobsDir).filter((n) => n.endsWith(JOB_SUFFIX));
  } catch {
    return [];
  }
  return names.sort().map((name) => readJobFile(core, `${JOBS_DIR}/${name}`));
}

/** The follow-up job an answer wrote for question `id`, or undefined when there is none. */
export function jobOf(core: Core, id: string): JobView | undefined {
  const rel = core.box.paths.jobRel(id);
  // lstat: a link in the job's place is a job that cannot be read, not a missing one.
  const there = lstatSync(join(core.box.paths.root, rel), { throwIfNoEntry: false });
  return there ? readJobFile(core, rel) : undefined;
}

/**
 * The text of a job file, read as question cards are (no links, regular files only, within
 * the card size limit, never a blocking open); throws an Error saying why it cannot be read.
 */
export function readJobText(core: Core, rel: string): string {
  const read = readCardBytes(join(core.box.paths.root, rel));
  if ("refused" in read) throw new Error(read.refused);
  return read.bytes.toString("utf8");
}

function readJobFile(core: Core, rel: string): JobView {
  const read = readCardBytes(join(core.box.paths.root, rel));
  if ("refused" in read) return { rel, error: read.refused, refused: read.refused };
  try {
    const text = parseCardText(read.bytes.toString("utf8"));
    const parsed = JobSchema.safeParse(text.data);
    return parsed.success
      ? { rel, job: parsed.data, instructions: jobBody(text.tail) }
      : { rel, error: parsed.error.issues[0]?.message ?? "invalid" };
  } catch (error) {
    return { rel, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The body after the closing `---` line, without the blank lines around it. */
function jobBody(tail: string): string {
  return tail.replace(/^---[^\n]*\n?/, "").trim();
}
