// The judge's path for an answer posted from a question's own page (the web form). The page is
// the boxholder's (its link is signed for them), and it is judged by what it showed as a tap is
// by its presentation: the fingerprint the page was rendered with must still be the card's.
// Needs no slot: a page answers any question, presented or not, and the slot learns of the
// answer from the adapter (the web announces it, the service reconciles the slot).

import { shownAsIs } from "../../card/fingerprint.ts";
import type { Question } from "../../card/question.ts";
import type { AnswerAttempt } from "../../card/resolve.ts";
import { CardChanged } from "../../errors.ts";
import { ANSWERABLE, answerQuestion, verbatimOf } from "../../questions/answer.ts";
import { safeAudit } from "../../questions/audit.ts";
import type { Core } from "../../questions/core.ts";
import { loadCommitted } from "../../questions/transition.ts";
import type { Actor, Outcome } from "./attempt.ts";
import { strangerOutcome } from "./taps.ts";

/** An answer posted from a question's page. */
export interface FormAttempt {
  kind: "form";
  surface: string;
  actor: Actor;
  questionId: string;
  answer: AnswerAttempt;
  /**
   * The fingerprint of the card as the page showed it. Undefined when the post names none (a
   * client that rendered no page): the card is taken as it is. An empty one matches no card.
   */
  shown: string | undefined;
}

const CHANGED_FORM_REPLY =
  "This question was edited after you opened it; nothing was recorded. Read it again and answer anew.";

/**
 * Decides and records a form's answer. A refusal carries the core's error (`error`) for the
 * page's own words; the judge audits what it refuses itself, the transition what it refuses.
 */
export async function judgeForm(core: Core, a: FormAttempt): Promise<Outcome> {
  const refused = await refuse(core, a);
  if (refused) {
    record(core, a, refused);
    return refused;
  }
  try {
    const result = await answerQuestion(
      core,
      a.questionId,
      a.answer,
      { via: a.surface, by: a.actor.id },
      { fingerprint: a.shown },
    );
    return {
      kind: "recorded",
      name: "answered",
      reply: `✅ Recorded: ${result.answer.text}`,
      answer: result.answer,
    };
  } catch (error) {
    // An edit that landed between the check and the lock: refused inside it, and audited there.
    const changed = error instanceof CardChanged;
    return {
      kind: "refused",
      name: changed ? "refused:changed" : "refused:error",
      reason: changed ? "changed" : "error",
      reply: changed ? CHANGED_FORM_REPLY : "Nothing was recorded.",
      error,
    };
  }
}

/**
 * The judge's own refusals, before any transition: a stranger, or a page that showed another
 * version of a card still open to an answer. A card that cannot be read, or one closed to
 * answers, is left to the transition, which names why.
 */
async function refuse(core: Core, a: FormAttempt): Promise<Outcome | undefined> {
  if (!a.actor.boxholder) return strangerOutcome();
  if (a.shown === undefined) return undefined;
  let card: Question;
  try {
    card = (await loadCommitted(core, a.questionId)).card;
  } catch {
    return undefined;
  }
  if (!(ANSWERABLE as readonly string[]).includes(card.status)) return undefined;
  if (shownAsIs(card, a.shown)) return undefined;
  return {
    kind: "refused",
    name: "refused:changed",
    reason: "changed",
    reply: CHANGED_FORM_REPLY,
    error: new CardChanged(a.questionId, "answer"),
    card,
  };
}

/** The audit line of a refusal the judge made. */
function record(core: Core, a: FormAttempt, outcome: Outcome): void {
  safeAudit(core, {
    at: core.box.clock.iso(),
    questionId: a.questionId,
    surface: a.surface,
    actor: a.actor.id,
    action: "answer",
    verbatim: verbatimOf(a.answer),
    outcome: outcome.name,
    detail: outcome.error instanceof Error ? outcome.error.message : outcome.reply,
  });
}
