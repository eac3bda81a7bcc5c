// How typed words name options: by letter (by position), label (ignoring case) or id, the
// refusal that says what would do when they name none or more than one, and the own words of
// `_other`. Shared by the input types that offer options; it never guesses. Pure.

import { InvalidAnswer } from "../../errors.ts";
import { indexOfLetter, letterOf, type Option, OTHER_OPTION } from "./option.ts";

export const MAX_ANSWER_CHARS = 20_000;

/** Where typed words put a note after the pick: "Finance - only paper", "yes: keep May's". */
export const NOTE_SEPARATOR = /\s+[-–—]\s+|\s*[:,;]\s+/;

/**
 * Every option a choice names, by label (ignoring case), id or letter. More than one means the
 * words are ambiguous (a label that is another option's letter), and nothing may be read.
 */
export function optionsNamed(options: Option[], choice: string): Option[] {
  const wanted = choice.trim();
  const lower = wanted.toLowerCase();
  const index = indexOfLetter(lower, options.length);
  const named = [
    options.find((o) => o.label.trim().toLowerCase() === lower),
    options.find((o) => o.id === wanted),
    index === undefined ? undefined : options[index],
  ];
  return [...new Set(named.filter((o): o is Option => o !== undefined))];
}

/** The one option a choice names; undefined if it names none or more than one. */
export function findOption(options: Option[], choice: string): Option | undefined {
  const named = optionsNamed(options, choice);
  return named.length === 1 ? named[0] : undefined;
}

export function describeChoices(options: Option[]): string {
  return options.map((o, i) => `${letterOf(i)}) ${o.label}`).join(", ");
}

/** The options named, each with its letter: "b) Taxes or a) B". */
export function namedWithLetters(options: Option[], named: Option[]): string {
  return [...named]
    .sort((a, b) => options.indexOf(a) - options.indexOf(b))
    .map((o) => `${letterOf(options.indexOf(o))}) ${o.label}`)
    .join(" or ");
}

/** Why a choice names no option: none matches, or several do (then it says which). */
export function unnamed(options: Option[], typed: string, named: Option[]): InvalidAnswer {
  if (named.length < 2) return new InvalidAnswer(typed, `one of ${describeChoices(options)}`);
  return new InvalidAnswer(
    typed,
    `one option, and it could mean ${namedWithLetters(options, named)}: tap its button or type its whole label`,
  );
}

/** The text, refused when it is over the answer limit (`what`: "an answer", "a note"). */
export function limited(text: string, what: string): string {
  if (text.length > MAX_ANSWER_CHARS) {
    throw new InvalidAnswer(
      `${text.slice(0, 40)}…`,
      `${what} of at most ${MAX_ANSWER_CHARS} characters`,
    );
  }
  return text;
}

/** The own words of an `_other` pick: the own-words field's, else the note's (then used up). */
export function ownWords(
  option: Option,
  typed: string,
  other: string | undefined,
  note: string | undefined,
): { words: string; note: string | undefined } {
  const own = other?.trim() ? limited(other.trim(), "an answer") : undefined;
  if (own) return { words: own, note };
  if (!note) {
    throw new InvalidAnswer(typed, `your own words with "${option.label}" (add them as the note)`);
  }
  return { words: note, note: undefined };
}

/** An answer of these fields, leaving out a note that is not there. */
export function answerOf(text: string, selected: string | undefined, note: string | undefined) {
  const answer = selected === undefined ? { text } : { text, selected };
  return note ? { ...answer, note } : answer;
}

/**
 * Own words where the form cannot take them: `_other` picked with neither own words nor a note
 * (the note stands in for them), or own words typed beside another pick (the page has no script,
 * so typing them does not pick their radio: a question to ask, never words to drop).
 */
export function ownWordsProblem(
  options: Option[],
  picked: string[],
  other: string | undefined,
  note: string | undefined,
): string | undefined {
  const label = options.find((o) => o.id === OTHER_OPTION)?.label ?? "Other";
  if (picked.includes(OTHER_OPTION)) {
    return other?.trim() || note?.trim()
      ? undefined
      : `Type your own words next to “${label}”; nothing was recorded.`;
  }
  const first = options.find((o) => picked.includes(o.id));
  if (first && other?.trim()) {
    return `You typed your own words for “${label}” but picked “${first.label}”: pick “${label}” to send your words, or clear them to send “${first.label}”; nothing was recorded.`;
  }
  return undefined;
}
