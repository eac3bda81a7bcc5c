// The judge's path for typed text, for the question typed-target.ts finds it is for. The text
// becomes an answer attempt (letter, label, "Label - note", yes/no, free text) and goes through
// the same transition as a tap, with the fingerprint of the presentation it targets: a card
// edited since it was shown refuses it on every surface. A lone character on a text question,
// and an answer to an irreversible question (but a typed no to a yes/no one, which declines),
// is recorded only once confirmed, by a tap or by a typed yes (a typed no declines); so is the
// option tapped on such a question (typed-confirm.ts). A reply to a question already answered
// is audited and never applied.

import { inputTypeOf, OTHER_OPTION, optionsOf, type Question } from "../../card/question.ts";
import { attemptFromText, findOption, resolveAnswer } from "../../card/resolve.ts";
import { CardChanged, InvalidAnswer, QbridgeError } from "../../errors.ts";
import { loadQuestion } from "../../questions/store.ts";
import { closureOf } from "../presentation/closure.ts";
import type { Presentation } from "../presentation/records.ts";
import type { Judging, Outcome, TextAttempt } from "./attempt.ts";
import { confirmingQuestion, needsConfirming, otherReply, wordsDropped } from "./confirm-words.ts";
import { heldElsewhereReply, refusedOutcome, strangerOutcome } from "./taps.ts";
import { declined, screenAct } from "./typed-confirm.ts";
import { askedWords, quotesOtherQuestion, targetOf } from "./typed-target.ts";
import { mayAct } from "./who.ts";

/** True when the card holds exactly the answer `text` gives, recorded from this person here. */
function isRecordedAnswer(j: Judging, card: Question, text: string): boolean {
  if (card["answered-via"] !== j.who.via || card["answered-by"] !== j.who.by || !card.answer) {
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
  if (j.who.trust === "stranger") return strangerOutcome();
  const target = targetOf(j, a);
  if (!target) return nothingOpen(a.text);
  const elsewhere = notForThisScreen(j, a, target);
  if (elsewhere) return elsewhere;
  let card: Question;
  try {
    card = loadQuestion(j.slot.core, target.questionId).card;
  } catch (error) {
    return { target, ...failed(error) };
  }
  if (card.status === "answered") return alreadyAnswered(j, a, target, card);
  const refusal = mayAct(j.who, "answer", { id: target.questionId, card });
  if (refusal) return { target, card, ...refusedOutcome(refusal) };
  // A yes or no typed while typed words wait for their confirming tap answers that question
  // (as a tap would); taken as an answer, a "no" would be recorded as the very words declined.
  const asked = askedWords(j, a, target);
  if (asked && !/^y(es)?[.!]?$/i.test(a.text.trim())) {
    const reply = wordsDropped(asked.label ?? "");
    j.slot.tokens.markMessageUsed(asked.chatId, asked.messageId as string, reply, j.now());
    return { kind: "recorded", name: "words-dropped", reply, target, card };
  }
  // On the confirming screen of a tapped option, a yes confirms that option and a no declines.
  const act = asked ? undefined : screenAct(j, a, target, card);
  if (act && "decline" in act) return declined(j, act.decline, target, card);
  const tapped = act?.confirm.optionId;
  if (!a.confirmed && !asked && !tapped) {
    const ask = askFirst(a, target, card);
    if (ask) return ask;
  }
  return record(j, target, card, asked?.label ?? a.text, tapped);
}

function nothingOpen(text: string): Outcome {
  return {
    kind: "not-for-us",
    name: "refused:nothing-open",
    reason: "nothing-open",
    reply: `Nothing is open right now, so "${text.slice(0, 60)}" was not recorded.`,
  };
}

/**
 * Text that is not for the presentation it targets on this screen: it quotes another question,
 * the open one is shown by another process, or it was confirmed for one no longer open.
 */
function notForThisScreen(j: Judging, a: TextAttempt, target: Presentation): Outcome | undefined {
  const other = quotesOtherQuestion(j, a, target);
  if (other) return other;
  const open = j.ops.current();
  if (open?.seq === target.seq && !j.ops.mine(open)) {
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
      reply: `Not recorded: the question "${a.text}" was typed for is no longer open.`,
      target,
    };
  }
  return undefined;
}

/**
 * Text for a question answered already. The same person's same answer there means this text
 * was redelivered after a restart cut its handling short (or sent twice): confirmed, not
 * refused. Any other late reply is audited and refused with what happened.
 */
function alreadyAnswered(j: Judging, a: TextAttempt, target: Presentation, card: Question) {
  const { ops } = j;
  const closure = closureOf(card);
  const after = async () => {
    if (ops.current()?.seq === target.seq) await ops.reconcile();
  };
  if (isRecordedAnswer(j, card, a.text)) {
    return {
      kind: "replayed",
      name: "already-recorded",
      reply: `✅ Recorded: ${card.answer?.text ?? ""}`,
      answer: card.answer,
      target,
      card,
      closure,
      after,
    } satisfies Outcome;
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
  } satisfies Outcome;
}

/** Text that must be confirmed before it is recorded: the question to ask (confirmation). */
function askFirst(a: TextAttempt, target: Presentation, card: Question): Outcome | undefined {
  const confirm = confirmation(card, a.text, a.literal === true);
  if (confirm instanceof Error) return { target, card, ...failed(confirm) };
  if (!confirm) return undefined;
  const owner = { presentationSeq: target.seq, questionId: target.questionId };
  return {
    kind: "needs-confirmation",
    name: "confirm-asked",
    reply: confirm,
    confirm: { text: a.text.trim(), owner },
    target,
    card,
  };
}

/** Records `words` (or the `tapped` option, by id) as the answer to `target`'s question. */
async function record(
  j: Judging,
  target: Presentation,
  card: Question,
  words: string,
  tapped: string | undefined,
): Promise<Outcome> {
  const { ops } = j;
  try {
    const { result, closed } = await ops.answer(
      target.questionId,
      // The tapped option is named by id, as its Confirm button would.
      tapped ? { text: tapped, option: tapped } : attemptFromText(card, words),
      { via: j.who.via, by: j.who.by },
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
    // The option for one's own words named without them ("c"): how to add them.
    if (error instanceof InvalidAnswer && namesOther(card, words)) {
      return { kind: "clarification", name: "needs-words", reply: otherReply(card), target, card };
    }
    // An edited card refuses the text here; the watcher closes the stale presentation and
    // shows the question anew, after the person has read why nothing was recorded.
    return { target, card, ...failed(error) };
  }
}

/** True when `typed` names the option for one's own words (by letter, label or id) alone. */
function namesOther(card: Question, typed: string): boolean {
  return findOption(optionsOf(card), typed)?.id === OTHER_OPTION;
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
    if (inputTypeOf(card.input).declines(answer)) return undefined;
    return `${confirmingQuestion(answer.text)} It cannot be undone.`;
  } catch (error) {
    return error as Error;
  }
}
