// Answer resolution, one function for every surface: what the boxholder typed or tapped,
// turned into the answer recorded on the card. The common rules are here (no control
// characters, the length limits, typed words read as words); what a type takes is its room's
// (inputs/). It never guesses: what does not resolve is an InvalidAnswer that says what would.

import { InvalidInput } from "../errors.ts";
import type { AnswerAttempt } from "./inputs/contract.ts";
import { findOption, limited } from "./inputs/naming.ts";
import { letterOf } from "./inputs/option.ts";
import { inputTypeOf } from "./inputs/registry.ts";
import { type Answer, controlCharacterIn, type Question } from "./question.ts";

export type { AnswerAttempt } from "./inputs/contract.ts";
export { MAX_ANSWER_CHARS, optionsNamed } from "./inputs/naming.ts";
export { findOption, letterOf };

function cleanNote(note: string | undefined): string | undefined {
  const trimmed = note?.trim();
  return trimmed ? limited(trimmed, "a note") : undefined;
}

/** Answers carry what cards carry: tabs and line breaks, no other control characters. */
function refuseControls(what: string, text: string | undefined): void {
  const found = text === undefined ? undefined : controlCharacterIn(text);
  if (found) {
    throw new InvalidInput(
      `${what} contains a control character (${found}): answers may carry tabs and line breaks, no other control characters`,
    );
  }
}

/**
 * Typed words turned into an answer attempt for a given card: "b", "Finance", "Finance - only
 * paper ones", "yes, but keep last month's", "a, c", free text. It splits off a note only where
 * the part before it picks (or is a yes/no word); it never guesses (resolveAnswer refuses the
 * rest). Every surface's words are read this way: a chat reply, `qbridge answer`, the API.
 */
export function attemptFromText(card: Pick<Question, "input">, typed: string): AnswerAttempt {
  return inputTypeOf(card.input).fromText(card.input, typed);
}

/** Words alone, with no note, own words or picked option beside them: read as typed words. */
function typedAlone(attempt: AnswerAttempt): boolean {
  return !attempt.note?.trim() && attempt.other === undefined && attempt.option === undefined;
}

export function resolveAnswer(card: Pick<Question, "input">, given: AnswerAttempt): Answer {
  refuseControls("the answer", given.text);
  refuseControls("the note", given.note);
  const attempt = typedAlone(given) ? attemptFromText(card, given.text) : given;
  return inputTypeOf(card.input).resolve(card.input, { ...attempt, note: cleanNote(attempt.note) });
}
