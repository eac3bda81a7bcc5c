// The one shape an agent reads a question in: the API, `qbridge show --json`, `qbridge wait`,
// the MCP tools and the answer webhooks all return a QuestionOutcome. Pure: built from a card
// that was loaded already; never reads the box itself.
//
// A timeout is never a status. "No answer yet" is `pending`, however long anyone waited.

import { z } from "zod";
import { JOB_SUFFIX, JOBS_DIR } from "../box/paths.ts";
import { isAgentPrompt, type Question } from "../card/question.ts";

export const OUTCOME_STATUSES = [
  "pending",
  "answered",
  "dismissed",
  "expired",
  "withdrawn",
] as const;
export type OutcomeStatus = (typeof OUTCOME_STATUSES)[number];

export const QuestionOutcomeSchema = z.object({
  id: z.string(),
  status: z.enum(OUTCOME_STATUSES),
  answer: z
    .object({ text: z.string(), selected: z.string().optional(), note: z.string().optional() })
    .optional(),
  answeredVia: z.string().optional(),
  answeredBy: z.string().optional(),
  askedAt: z.string(),
  answeredAt: z.string().optional(),
  /** Seconds from `askedAt` to the answer or the withdrawal; to now while still open. */
  waitedSeconds: z.number().int().nonnegative(),
  /** Answered after it was dismissed or expired. */
  late: z.boolean(),
  /** A fresh signed link to the question's web page (when QBRIDGE_PUBLIC_URL is set). */
  link: z.string().optional(),
  /** The follow-up job the answer wrote, box-relative (none for a coding agent's own prompt). */
  jobRel: z.string().optional(),
  /**
   * While a pending question waits to be shown: until when (the end of quiet hours, or the time
   * the boxholder put it off to with "Later").
   */
  heldUntil: z.string().optional(),
});

export type QuestionOutcome = z.infer<typeof QuestionOutcomeSchema>;

/** Makes a fresh signed link to a question's web page, or undefined when there is none. */
export type OutcomeLink = (id: string) => string | undefined;

export interface OutcomeContext {
  /** The box clock's now: how long a still-open question has waited. */
  now: Date;
  link?: OutcomeLink | undefined;
  /** Until when a pending question waits to be shown, if it does (the slot knows; see held.ts). */
  heldUntil?: ((view: { id: string; card: Question }) => string | undefined) | undefined;
}

/** The statuses after which nothing more happens to a question. */
export function isFinal(status: OutcomeStatus): boolean {
  return status === "answered" || status === "withdrawn";
}

function secondsBetween(from: string, to: Date): number {
  return Math.max(0, Math.floor((to.getTime() - new Date(from).getTime()) / 1000));
}

/** The outcome of a question as its card says now. */
export function questionOutcome(
  view: { id: string; card: Question },
  context: OutcomeContext,
): QuestionOutcome {
  const { id, card } = view;
  const fields = card as Question & Record<string, unknown>;
  const status = card.status as OutcomeStatus;
  const askedAt = card["asked-at"];
  const closedAt =
    status === "answered"
      ? card["answered-at"]
      : status === "withdrawn"
        ? (fields["withdrawn-at"] as string | undefined)
        : undefined;
  const outcome: QuestionOutcome = {
    id,
    status,
    askedAt,
    waitedSeconds: secondsBetween(askedAt, closedAt ? new Date(closedAt) : context.now),
    late: status === "answered" && fields["answered-after"] !== undefined,
  };
  if (status === "answered" && card.answer) {
    outcome.answer = { text: card.answer.text };
    if (card.answer.selected !== undefined) outcome.answer.selected = card.answer.selected;
    if (card.answer.note !== undefined) outcome.answer.note = card.answer.note;
    if (card["answered-via"] !== undefined) outcome.answeredVia = card["answered-via"];
    if (card["answered-by"] !== undefined) outcome.answeredBy = card["answered-by"];
    if (card["answered-at"] !== undefined) outcome.answeredAt = card["answered-at"];
    if (!isAgentPrompt(card)) outcome.jobRel = `${JOBS_DIR}/${id}${JOB_SUFFIX}`;
  }
  const held = status === "pending" ? context.heldUntil?.(view) : undefined;
  if (held !== undefined) outcome.heldUntil = held;
  const link = context.link?.(id);
  if (link !== undefined) outcome.link = link;
  return outcome;
}
