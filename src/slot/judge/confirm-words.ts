// What the chat bridges say around a typed answer: which typed answers are recorded only after
// a confirming yes, and the words of that question. How typed words become an answer is the
// core's (attemptFromText in src/card/resolve.ts), the same for every surface.

import { inputTypeOf, OTHER_OPTION, optionsOf, type Question } from "../../card/question.ts";
import { letterOf } from "../../card/resolve.ts";

/**
 * True when a typed answer is final only after a confirming yes: words its input type takes for
 * a stray key (a lone character on a text question: more likely an option letter meant for
 * another question than an answer), and an answer is final. Every bridge asks this first.
 */
export function needsConfirming(card: Pick<Question, "input">, typed: string): boolean {
  return inputTypeOf(card.input).strayKey(typed);
}

/** How much of the typed words the confirming question quotes (the whole is recorded). */
const QUOTED_CHARS = 300;

/**
 * The question a bridge asks before recording such an answer. Long words are quoted in part,
 * with their length: the question must fit one chat message, and the person just typed them.
 */
export function confirmingQuestion(typed: string): string {
  const chars = Array.from(typed.trim());
  if (chars.length <= QUOTED_CHARS) return `Record "${chars.join("")}" as your answer?`;
  const start = chars
    .slice(0, QUOTED_CHARS - 1)
    .join("")
    .trimEnd();
  return `Record "${start}…" (${chars.length.toLocaleString("en")} characters) as your answer?`;
}

/** Typed words declined at their confirming question ("Record "c" as your answer?"). */
export function wordsDropped(words: string): string {
  return `Not recorded: "${words}". Reply with your answer.`;
}

/**
 * The option for one's own words, tapped or typed alone: how to type them, with that option's
 * letter (its label may be anything: "Other", "Somewhere else"; the letter always resolves).
 */
export function otherReply(card: Question): string {
  const letter = letterOf(optionsOf(card).findIndex((o) => o.id === OTHER_OPTION));
  return `Reply with your own words after "${letter} - ", e.g. "${letter} - the shoebox under the desk".`;
}
