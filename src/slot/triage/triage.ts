// Triage of a backlog: when enough questions wait, a digest lists the first of them with their
// recommendations, and offers to accept the recommendations that may be accepted in one go.
// The rule of what is listed and offered, and the step that records an accepted offer, live
// here for every surface; a bridge or the web page only renders them.
//
// Never records anything on its own: `acceptOffer` runs only for an offer the boxholder was
// shown and confirmed, and each answer goes through the transition core with its own commit.
// An item whose card changed since the offer was shown, or that was closed meanwhile, is
// skipped and named, never answered.

import { createHash } from "node:crypto";
import { questionFingerprint } from "../../card/fingerprint.ts";
import { isAgentPrompt, OTHER_OPTION, optionsOf, type Question } from "../../card/question.ts";
import type { AnswerAttempt } from "../../card/resolve.ts";
import { CardChanged, QbridgeError, QuestionNotFound, TransitionRejected } from "../../errors.ts";
import type { AnswerOptions } from "../../questions/answer.ts";
import type { Core } from "../../questions/core.ts";
import { beforeDeadline } from "../../questions/deadline.ts";
import { pendingQuestions, type QuestionView } from "../../questions/state.ts";
import { LaterStore } from "../attention/later.ts";
import { queueOrder } from "../order.ts";
import { closureOf } from "../presentation/closure.ts";
import { PresentationStore } from "../presentation/records.ts";

/** A digest is shown from this many waiting questions on; below, one at a time is enough. */
export const DIGEST_FROM = 5;
/** At most this many questions are listed (and offered) in one digest. */
export const DIGEST_LINES = 10;
/** The note every answer accepted in triage carries. */
export const TRIAGE_NOTE = "recommendation accepted in triage";

export interface DigestLine {
  id: string;
  prompt: string;
  /** The recommended choice as the boxholder reads it ("Finance", "Yes"), when there is one. */
  recommendation: string | undefined;
  /** Why its recommendation is not offered for accepting, when it has one that is not. */
  held: "irreversible" | "own words" | undefined;
}

/** One answer an offer would record: the question, its prompt, the choice, as it was shown. */
export interface OfferItem {
  id: string;
  prompt: string;
  /** The recommended option's label: what is recorded. */
  answer: string;
  /** The card as listed (triageFingerprint): any change since skips the item. */
  fingerprint: string;
}

/**
 * A digest line's recommendation in words for a chat: the choice as `shown` renders it (plain
 * text, HTML), and why it is not offered for accepting when it is held.
 */
export function recommendationWords(line: DigestLine, shown: (choice: string) => string): string {
  if (line.recommendation === undefined) return "no recommendation";
  const rec = shown(line.recommendation);
  if (line.held === "irreversible") return `${rec} (irreversible: answer it on its own)`;
  if (line.held === "own words") return `${rec} (needs your own words)`;
  return rec;
}

export interface Digest {
  /** How many questions wait in all (the digest lists at most DIGEST_LINES). */
  waiting: number;
  lines: DigestLine[];
  /** The listed questions whose recommendation may be accepted, in the order listed. */
  offer: OfferItem[];
}

/**
 * What the boxholder saw of a card in a digest: its prompt and options (questionFingerprint),
 * the recommendation and whether it is irreversible. Any change there skips the item.
 */
export function triageFingerprint(card: Question): string {
  const shape = JSON.stringify([
    questionFingerprint(card),
    card.recommended ?? null,
    card.irreversible === true,
  ]);
  return createHash("sha256").update(shape).digest("base64url").slice(0, 16);
}

function recommendedLabel(card: Question): string | undefined {
  if (card.recommended === undefined) return undefined;
  return optionsOf(card).find((o) => o.id === card.recommended)?.label;
}

function lineOf(view: QuestionView): DigestLine {
  const { card } = view;
  const recommendation = recommendedLabel(card);
  const held =
    recommendation === undefined
      ? undefined
      : card.irreversible === true
        ? "irreversible"
        : card.recommended === OTHER_OPTION
          ? "own words"
          : undefined;
  return { id: view.id, prompt: card.prompt, recommendation, held };
}

/**
 * The digest of the waiting questions (in the order the slot would show them), or undefined
 * when fewer than DIGEST_FROM wait. Only pending cards count.
 */
export function triageDigest(queue: QuestionView[]): Digest | undefined {
  const pending = queue.filter((v) => v.card.status === "pending");
  if (pending.length < DIGEST_FROM) return undefined;
  const listed = pending.slice(0, DIGEST_LINES);
  const lines = listed.map(lineOf);
  const offer = listed.flatMap((view, i): OfferItem[] => {
    const line = lines[i] as DigestLine;
    // A coding agent's own prompt is decided one at a time, never in bulk.
    if (line.recommendation === undefined || line.held || isAgentPrompt(view.card)) return [];
    return [
      {
        id: view.id,
        prompt: view.card.prompt,
        answer: line.recommendation,
        fingerprint: triageFingerprint(view.card),
      },
    ];
  });
  return { waiting: pending.length, lines, offer };
}

/**
 * The digest of the box's waiting questions in the slot's order, parked ones last; those put
 * off with "Later" stay out until they come back, and so do those past their deadline (as in the
 * slot). `pending` saves a second scan where the caller has them.
 */
export function boxDigest(
  core: Core,
  pending = pendingQuestions(core).pending,
): Digest | undefined {
  const now = core.box.clock.now();
  const putOff = core.ledger.store(LaterStore).waiting(now);
  const { ready, parked } = queueOrder(
    pending.filter((q) => beforeDeadline(q.card, now) && !putOff.has(q.id)),
    core.ledger.store(PresentationStore).parked(),
  );
  return triageDigest([...ready, ...parked]);
}

/** One answer path: the surface's way into the transition core (the slot's, or the web's). */
export type AnswerPath = (
  id: string,
  attempt: AnswerAttempt,
  options: AnswerOptions,
) => Promise<unknown>;

export interface Skipped {
  id: string;
  prompt: string;
  /** Why nothing was recorded for it, as words that follow its prompt. */
  why: string;
}

export interface OfferResult {
  recorded: OfferItem[];
  skipped: Skipped[];
}

/** What the bridge shows in place of the tapped message (relayout "triage"). */
export type TriageView =
  | { step: "offer"; offerId: string; items: OfferItem[] }
  | { step: "result"; result: OfferResult; replayed: boolean };

/** Inside the question's lock: still pending, and still the card that was listed. */
function recheck(item: OfferItem): (card: Question) => void {
  return (card) => {
    if (card.status !== "pending") throw new TransitionRejected(item.id, "answer", card.status, "");
    if (isAgentPrompt(card)) throw new CardChanged(item.id, "answer");
    if (triageFingerprint(card) !== item.fingerprint) throw new CardChanged(item.id, "answer");
  };
}

function whySkipped(error: unknown, load: (id: string) => Question | undefined, id: string) {
  if (error instanceof CardChanged) return "was edited since the list";
  if (error instanceof QuestionNotFound) return "was removed from the box";
  if (error instanceof TransitionRejected) {
    try {
      return `was ${closureOf(load(id)).text}`;
    } catch {
      return `is already ${error.current}`;
    }
  }
  return error instanceof QbridgeError ? `failed: ${error.message}` : "failed inside the box";
}

/**
 * Records the accepted offer, one answer (and one commit) per item, in the order listed. The
 * boxholder's second tap is the only caller; an item that cannot be recorded as it was shown
 * is skipped, and the rest go on. A failure that is not the core's own is rethrown only when
 * nothing was recorded; otherwise that item is named as failed.
 */
export async function acceptOffer(
  items: OfferItem[],
  answer: AnswerPath,
  load: (id: string) => Question | undefined,
): Promise<OfferResult> {
  const result: OfferResult = { recorded: [], skipped: [] };
  for (const item of items) {
    const card = load(item.id);
    const option = card && optionsOf(card).find((o) => o.label === item.answer);
    try {
      if (!card) throw new QuestionNotFound(item.id);
      if (!option) throw new CardChanged(item.id, "answer");
      // The label, not the id: labels are unique and resolve first, so an id that is also
      // another option's letter or label cannot pick the wrong one.
      await answer(
        item.id,
        { text: option.label, note: TRIAGE_NOTE },
        {
          fingerprint: questionFingerprint(card),
          recheck: recheck(item),
        },
      );
      result.recorded.push(item);
    } catch (error) {
      if (!(error instanceof QbridgeError) && result.recorded.length === 0) throw error;
      result.skipped.push({
        id: item.id,
        prompt: item.prompt,
        why: whySkipped(error, load, item.id),
      });
    }
  }
  return result;
}
