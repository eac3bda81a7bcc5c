// The judge's path for typed text. A reply-to a presentation targets that question; a reply to
// a message whose buttons are about other questions (a nudge) targets none; otherwise the one
// that was on screen when the text was written (the open one, unless the text is older than it). The text becomes an answer attempt (letter, label, "Label - note", yes/no, free
// text) and goes through the same transition as a tap, with the fingerprint of the
// presentation it targets: a card edited since it was shown refuses it on every surface. A
// lone character on a text question, and an answer to an irreversible question (but a typed
// no to a yes/no one, which declines), is recorded only once confirmed. A reply to a question
// already answered is audited and never applied.

import type { Question } from "../card/question.ts";
import { resolveAnswer } from "../card/resolve.ts";
import { CardChanged, InvalidAnswer, QbridgeError } from "../errors.ts";
import { loadQuestion } from "../questions/store.ts";
import { attemptFromText, confirmingQuestion, needsConfirming } from "./attempt.ts";
import type { Judging, Outcome, TextAttempt } from "./attempts.ts";
import { heldElsewhereReply } from "./button-attempts.ts";
import { closureOf } from "./closure.ts";
import type { Presentation } from "./presentations.ts";

/**
 * A text without reply-to means the question on screen when it was written. A message older
 * than the open presentation (redelivered after a restart that moved the slot on) was written
 * for the one shown before it, never for the open one. A question claimed but not yet sent (a
 * dead process's claim, or a send in flight) was on nobody's screen: the message was meant for
 * the one shown before it, unless that one was parked (the screen said so).
 */
function meantFor(j: Judging, a: TextAttempt): Presentation | undefined {
  const open = j.ops.current();
  if (!open || a.chatId === undefined || a.messageId === undefined) return open;
  const { presentations } = j.slot;
  if (open.messageId === undefined) {
    const before = presentations.shownBefore(a.surface, a.chatId, a.messageId);
    return before?.state === "parked" ? undefined : before;
  }
  if (open.chatId !== a.chatId || Number(open.messageId) < a.messageId) return open;
  return presentations.shownBefore(a.surface, a.chatId, a.messageId);
}

/** The presentation a typed text is for: the one it quotes, else the one meant. */
export function targetOf(j: Judging, a: TextAttempt): Presentation | undefined {
  const quoted =
    a.replyTo !== undefined && a.chatId !== undefined
      ? j.slot.presentations.byMessage(a.surface, a.chatId, a.replyTo)
      : undefined;
  return quoted ?? meantFor(j, a);
}

/**
 * A reply to a message whose buttons are about other questions than `target` (a nudge's
 * "Show it", a digest's lines) was meant for one of those, never for the open question: the
 * refusal that says so, naming the question when there is one. Undefined when it may go on.
 */
function quotesOtherQuestion(
  j: Judging,
  a: TextAttempt,
  target: Presentation,
): Outcome | undefined {
  if (a.replyTo === undefined || a.chatId === undefined) return undefined;
  if (target.messageId === a.replyTo && target.chatId === a.chatId) return undefined;
  const about = j.slot.tokens.questionsOn(a.chatId, a.replyTo);
  if (about.length === 0 || about.includes(target.questionId)) return undefined;
  let which = "other questions";
  if (about.length === 1) {
    try {
      which = `“${loadQuestion(j.slot.core, about[0] as string).card.prompt}”`;
    } catch {
      which = "another question";
    }
  }
  return {
    kind: "refused",
    name: "refused:other-question",
    reason: "not-current",
    reply: `Not recorded: the message you replied to is about ${which}, not the open question. Tap that message's button to show it here first, or reply to the open question itself.`,
  };
}

/** True when the card holds exactly the answer `text` gives, recorded from this person here. */
function isRecordedAnswer(card: Question, text: string, a: TextAttempt): boolean {
  if (card["answered-via"] !== a.surface || card["answered-by"] !== a.actor.id || !card.answer) {
    return false;
  }
  try {
    const again = resolveAnswer(card, attemptFromText(card, text));
    const { answer } = card;
    return (
      again.text === answer.text && again.selected === answer.selected && again.note === answer.note
    );
  } catch {
    return false;
  }
}

const CHANGED_TEXT_REPLY =
  "Not recorded: this question was edited since it was shown. Look at it again and reply anew.";

function failed(error: unknown): Outcome {
  if (error instanceof CardChanged) {
    return {
      kind: "refused",
      name: "refused:changed",
      reason: "changed",
      reply: CHANGED_TEXT_REPLY,
      error,
    };
  }
  if (error instanceof InvalidAnswer) {
    return {
      kind: "clarification",
      name: "unresolved",
      reply: `${error.message}. Nothing was recorded.`,
      error,
    };
  }
  const reply =
    error instanceof QbridgeError
      ? `Not recorded: ${error.message}.`
      : "Something went wrong; nothing was recorded.";
  return { kind: "refused", name: "refused:error", reason: "error", reply, error };
}

export async function judgeText(j: Judging, a: TextAttempt): Promise<Outcome> {
  const { ops } = j;
  const text = a.text;
  const target = targetOf(j, a);
  if (!target) {
    return {
      kind: "not-for-us",
      name: "refused:nothing-open",
      reason: "nothing-open",
      reply: `Nothing is open right now, so "${text.slice(0, 60)}" was not recorded.`,
    };
  }
  const other = quotesOtherQuestion(j, a, target);
  if (other) return other;
  const open = ops.current();
  if (open?.seq === target.seq && !ops.mine(open)) {
    return {
      kind: "not-for-us",
      name: "refused:held-elsewhere",
      reason: "held-elsewhere",
      reply: heldElsewhereReply(open),
      target,
    };
  }
  if (a.confirmed?.seq !== undefined && open?.seq !== a.confirmed.seq) {
    return {
      kind: "refused",
      name: "refused:not-current",
      reason: "not-current",
      reply: `Not recorded: the question "${text}" was typed for is no longer open.`,
      target,
    };
  }
  let card: Question;
  try {
    card = loadQuestion(j.slot.core, target.questionId).card;
  } catch (error) {
    return { target, ...failed(error) };
  }
  if (card.status === "answered") {
    // The same person's same answer already there means this text was redelivered after a
    // restart cut its handling short (or sent twice): confirmed, not refused. Any other late
    // reply is audited and refused with what happened.
    const closure = closureOf(card);
    const after = async () => {
      if (ops.current()?.seq === target.seq) await ops.reconcile();
    };
    if (isRecordedAnswer(card, text, a)) {
      return {
        kind: "replayed",
        name: "already-recorded",
        reply: `✅ Recorded: ${card.answer?.text ?? ""}`,
        answer: card.answer,
        target,
        card,
        closure,
        after,
      };
    }
    return {
      kind: "refused",
      name: "not-applied",
      reason: "late",
      reply: `Not recorded: that question was already ${closure.text}.`,
      target,
      card,
      closure,
      after,
    };
  }
  if (!a.confirmed) {
    const confirm = confirmation(card, text, a.literal === true);
    if (confirm instanceof Error) return { target, card, ...failed(confirm) };
    if (confirm) {
      const owner = {
        presentationSeq: target.seq,
        questionId: target.questionId,
        cardHash: target.cardHash,
      };
      return {
        kind: "needs-confirmation",
        name: "confirm-asked",
        reply: confirm,
        confirm: { text: text.trim(), owner },
        target,
        card,
      };
    }
  }
  try {
    const { result, closed } = await ops.answer(
      target.questionId,
      attemptFromText(card, text),
      { via: a.surface, by: a.actor.id },
      { fingerprint: target.cardHash },
    );
    const reply = `✅ Recorded: ${result.answer.text}`;
    if (closed) j.slot.tokens.markPresentationUsed(closed.seq, reply, result.answeredAt);
    return {
      kind: "recorded",
      name: "answered",
      reply,
      answer: result.answer,
      target,
      card,
      after: () => ops.settle(closed),
    };
  } catch (error) {
    // An edited card refuses the text here; the watcher closes the stale presentation and
    // shows the question anew, after the person has read why nothing was recorded.
    return { target, card, ...failed(error) };
  }
}

/**
 * The question to ask before recording typed text, when it needs one: a lone character on a
 * text question (a stray key), or an answer to an irreversible question (said with the
 * option it resolves to), but the no of an irreversible yes/no question. An Error when the text answers nothing (nothing to confirm).
 */
function confirmation(card: Question, text: string, literal: boolean): string | Error | undefined {
  if (!literal && needsConfirming(card, text)) return confirmingQuestion(text);
  if (!card.irreversible) return undefined;
  try {
    const answer = resolveAnswer(card, attemptFromText(card, text));
    // A typed no declines: nothing irreversible happens, and the words were no slip of a finger.
    if (card.input.type === "confirm" && answer.selected === "no") return undefined;
    return `${confirmingQuestion(answer.text)} It cannot be undone.`;
  } catch (error) {
    return error as Error;
  }
}
