// Typed text while a tapped answer of an irreversible question waits for its confirming tap:
// [⚠️ Confirm X] [↩️ Back] is on the question's own message. What the boxholder types there is
// their explicit act on what the screen asks: a yes (or X itself, typed) confirms X, and a no
// declines it as Back would. Anything else is judged as typed text always is. Never a guess
// across questions: only the open presentation's own screen counts, and a decline leaves the
// screen's buttons able to replay it, never to record.

import { inputTypeOf, type Question } from "../../card/question.ts";
import { attemptFromText, resolveAnswer } from "../../card/resolve.ts";
import type { Presentation } from "../presentation/records.ts";
import type { ButtonToken } from "../presentation/tokens.ts";
import type { Judging, Outcome, TextAttempt } from "./attempt.ts";

const YES = /^(y|yes)[.!]?$/i;
const NO = /^(n|no)[.!]?$/i;

/** What typed text does on the confirming screen: confirm its option, decline it, or neither. */
export type ScreenAct = { confirm: ButtonToken } | { decline: ButtonToken } | undefined;

/**
 * The act `a` makes on the confirming screen of `target`, when that screen is what the open
 * presentation's message shows. On a yes/no question yes and no are its own answers: typing the
 * tapped one confirms it, and the other is an answer like any typed one (a no declines there).
 */
export function screenAct(
  j: Judging,
  a: TextAttempt,
  target: Presentation,
  card: Question,
): ScreenAct {
  if (a.confirmed || a.chatId === undefined || target.messageId === undefined) return undefined;
  if (target.chatId !== a.chatId || j.ops.current()?.seq !== target.seq) return undefined;
  const confirm = j.slot.tokens.confirmShown(target.seq, a.chatId, target.messageId);
  if (!confirm) return undefined;
  const text = a.text.trim();
  if (!inputTypeOf(card.input).answersYesNo) {
    if (YES.test(text)) return { confirm };
    if (NO.test(text)) return { decline: confirm };
  }
  return resolvedOption(card, text) === confirm.optionId ? { confirm } : undefined;
}

function resolvedOption(card: Question, text: string): string | undefined {
  try {
    return resolveAnswer(card, attemptFromText(card, text)).selected;
  } catch {
    return undefined;
  }
}

/** The decline: nothing recorded, the screen's buttons replay it, the choices come back. */
export function declined(
  j: Judging,
  confirm: ButtonToken,
  target: Presentation,
  card: Question,
): Outcome {
  const reply = `Not recorded: ${confirm.label ?? confirm.optionId}. Here are the choices again.`;
  if (confirm.messageId) {
    j.slot.tokens.markMessageUsed(confirm.chatId, confirm.messageId, reply, j.now());
  }
  return {
    kind: "recorded",
    name: "declined",
    reply,
    relayout: "choices",
    picks: j.slot.presentations.picks(target.seq),
    token: confirm,
    target,
    card,
  };
}
