// The aging sweep: nudge a pending question once, expire it later, when aging-policy.ts says.
// Never answers anything.
// Age comes from the card's `asked-at` alone; the ledger's latch only stops a second nudge,
// so a lost ledger can cause a duplicate nudge and nothing else.

import { maintainBox } from "../box/commit.ts";
import type { Question } from "../card/question.ts";
import { TransitionRejected } from "../errors.ts";
import { agingSchedule } from "./aging-policy.ts";
import { expireQuestion } from "./close.ts";
import type { Core } from "./core.ts";
import { pendingQuestions, type QuestionView } from "./state.ts";
import { loadQuestion } from "./store.ts";
import { settleInterruptedWrites } from "./transition.ts";

/** Delivers a nudge; resolves true when it reached the boxholder. */
export type Nudger = (question: QuestionView) => Promise<boolean>;

export interface SweepReport {
  checked: number;
  nudged: string[];
  /** Nudges due that no channel could deliver; they stay due. */
  nudgeDue: string[];
  expired: string[];
  /** Questions another process closed while the sweep ran. */
  skipped: string[];
  /** Set when git's housekeeping failed (the sweep itself still counts as run). */
  maintenance?: string;
}

function pastDeadline(card: Question, now: number): boolean {
  return now - new Date(card["asked-at"]).getTime() >= agingSchedule(card).expireAtMs;
}

function nudgeStillDue(core: Core, id: string, now: number): QuestionView | undefined {
  try {
    const { rel, card } = loadQuestion(core, id);
    const age = now - new Date(card["asked-at"]).getTime();
    return card.status === "pending" && age >= agingSchedule(card).nudgeAtMs
      ? { id, rel, card }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Nudges or expires each pending question that is due, then runs git's housekeeping once. */
export async function ageQuestions(
  core: Core,
  options: { nudge?: Nudger; onProgress?: (done: number, total: number) => void } = {},
): Promise<SweepReport> {
  const now = core.box.clock.now().getTime();
  // A card a dead writer half-dismissed or half-expired on disk is still pending in git.
  await settleInterruptedWrites(core);
  const { pending } = pendingQuestions(core);
  const report: SweepReport = {
    checked: pending.length,
    nudged: [],
    nudgeDue: [],
    expired: [],
    skipped: [],
  };
  for (const [i, question] of pending.entries()) {
    options.onProgress?.(i, pending.length);
    const age = now - new Date(question.card["asked-at"]).getTime();
    const schedule = agingSchedule(question.card);
    if (age >= schedule.expireAtMs) await expireDue(core, question.id, now, report);
    else if (age < schedule.nudgeAtMs) continue;
    else if (!options.nudge) {
      if (core.ledger.nudgedAt(question.id) === undefined) report.nudgeDue.push(question.id);
    } else await nudgeOnce(core, question.id, now, options.nudge, report);
  }
  options.onProgress?.(pending.length, pending.length);
  // The housekeeping commits skip (see commit.ts): once a sweep, never on an answer's path.
  try {
    await maintainBox(core.box);
  } catch (error) {
    report.maintenance = `git maintenance failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
  }
  core.ledger.setMeta("last-sweep", core.box.clock.iso());
  return report;
}

/** Expires a question past its deadline; one another process closed meanwhile is skipped. */
async function expireDue(core: Core, id: string, now: number, report: SweepReport): Promise<void> {
  try {
    // Due again under the lock: an extension that landed since the scan keeps it pending.
    await expireQuestion(core, id, undefined, (card) => pastDeadline(card, now));
    report.expired.push(id);
  } catch (error) {
    if (!(error instanceof TransitionRejected)) throw error;
    report.skipped.push(id);
  }
}

/** Delivers a due nudge at most once, under the ledger's claim; one not delivered stays due. */
async function nudgeOnce(
  core: Core,
  id: string,
  now: number,
  nudge: Nudger,
  report: SweepReport,
): Promise<void> {
  // The claim decides, not the latch's presence: a nudge sent, or claimed by a sweep that may
  // still be delivering it, is skipped; a claim left by a sweep that died before confirming or
  // releasing it (killed while no boxholder was paired, say) is taken over, not kept forever.
  if (!core.ledger.claimNudge(id, core.box.clock.iso())) return;
  // The card as it is now, not as scanned: answered, withdrawn or given more time since (in
  // another process, or on another surface while earlier nudges were delivered) gets none.
  const current = nudgeStillDue(core, id, now);
  if (!current) {
    core.ledger.releaseNudge(id);
    return;
  }
  let delivered = false;
  try {
    delivered = await nudge(current);
  } catch {
    // A channel that fails is a nudge not delivered: it stays due, and the sweep goes on to
    // expire what is due (expiry must not depend on any channel working).
    delivered = false;
  }
  if (delivered) core.ledger.confirmNudge(id);
  else core.ledger.releaseNudge(id);
  if (delivered) report.nudged.push(id);
  else report.nudgeDue.push(id);
}
