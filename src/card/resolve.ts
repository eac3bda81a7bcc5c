// Answer resolution, one function for every surface: what the boxholder typed or tapped,
// turned into the answer recorded on the card. It never guesses: what does not resolve is an
// InvalidAnswer that says what would.

import { InvalidAnswer, InvalidInput } from "../errors.ts";
import { letterOf } from "./input.ts";
import {
  type Answer,
  controlCharacterIn,
  type Option,
  OTHER_OPTION,
  type Question,
} from "./question.ts";

export const MAX_ANSWER_CHARS = 20_000;

/** What a surface hands in: a choice (letter, label or option id) and/or free text. */
export interface AnswerAttempt {
  /** The letter, label, option id, yes/no word, or (text questions) the answer itself. */
  text: string;
  /** Extra words: a confirm or select note, or the `_other` option's own text. */
  note?: string | undefined;
  /**
   * The `_other` option's own words, where the surface has a field for them apart from the
   * note (the web form): then the note stays a note. Without it the note is the own words.
   */
  other?: string | undefined;
  /**
   * The exact id of the option picked where the surface knows it (a radio on the web page):
   * resolved by id only, never as a label or letter, since one option's label may be another
   * option's id.
   */
  option?: string | undefined;
}

const YES = new Set(["yes", "y", "true", "1"]);
const NO = new Set(["no", "n", "false", "0"]);

export { letterOf };

function indexOfLetter(text: string): number | undefined {
  if (!/^[a-z]{1,2}$/.test(text)) return undefined;
  let n = 0;
  for (const ch of text) n = n * 26 + (ch.charCodeAt(0) - 96);
  return n - 1;
}

/**
 * Every option a choice names, by label (ignoring case), id or letter. More than one means the
 * words are ambiguous (a label that is another option's letter), and nothing may be read.
 */
export function optionsNamed(options: Option[], choice: string): Option[] {
  const wanted = choice.trim();
  const lower = wanted.toLowerCase();
  const index = indexOfLetter(lower);
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

function describeChoices(options: Option[]): string {
  return options.map((o, i) => `${letterOf(i)}) ${o.label}`).join(", ");
}

/** Why a choice names no option: none matches, or several do (then it says which). */
function unnamed(options: Option[], typed: string, named: Option[]): InvalidAnswer {
  if (named.length < 2) return new InvalidAnswer(typed, `one of ${describeChoices(options)}`);
  const meant = named
    .sort((a, b) => options.indexOf(a) - options.indexOf(b))
    .map((o) => `${letterOf(options.indexOf(o))}) ${o.label}`)
    .join(" or ");
  return new InvalidAnswer(
    typed,
    `one option, and it could mean ${meant}: tap its button or type its whole label`,
  );
}

function limited(text: string, what: string): string {
  if (text.length > MAX_ANSWER_CHARS) {
    throw new InvalidAnswer(
      `${text.slice(0, 40)}…`,
      `${what} of at most ${MAX_ANSWER_CHARS} characters`,
    );
  }
  return text;
}

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

const NOTE_SEPARATOR = /\s+[-–—]\s+|\s*[:,;]\s+/;
const CONFIRM_WORD = /^(yes|no|y|n|true|false|1|0)\b[\s,:;.!–—-]*(.*)$/is;

/**
 * Typed words turned into an answer attempt for a given card: "b", "Finance", "Finance - only
 * paper ones", "yes, but keep last month's", free text. It splits off a note only where the part
 * before it names an option (or is a yes/no word); it never guesses (resolveAnswer refuses the
 * rest). Every surface's words are read this way: a chat reply, `qbridge answer`, the API.
 */
export function attemptFromText(card: Pick<Question, "input">, typed: string): AnswerAttempt {
  const text = typed.trim();
  switch (card.input.type) {
    case "text":
      return { text };
    case "confirm": {
      const match = CONFIRM_WORD.exec(text);
      if (!match) return { text };
      const note = match[2]?.trim();
      return note ? { text: match[1] as string, note } : { text: match[1] as string };
    }
    case "select": {
      const options = card.input.options ?? [];
      if (findOption(options, text)) return { text };
      const split = NOTE_SEPARATOR.exec(text);
      if (split && split.index > 0) {
        const choice = text.slice(0, split.index);
        const note = text.slice(split.index + split[0].length).trim();
        if (findOption(options, choice) && note) return { text: choice, note };
      }
      return { text };
    }
  }
}

/** Words alone, with no note, own words or picked option beside them: read as typed words. */
function typedAlone(attempt: AnswerAttempt): boolean {
  return !attempt.note?.trim() && attempt.other === undefined && attempt.option === undefined;
}

export function resolveAnswer(card: Pick<Question, "input">, given: AnswerAttempt): Answer {
  refuseControls("the answer", given.text);
  refuseControls("the note", given.note);
  const attempt = typedAlone(given) ? attemptFromText(card, given.text) : given;
  const typed = attempt.text.trim();
  const note = cleanNote(attempt.note);
  switch (card.input.type) {
    case "text": {
      const text = limited(typed, "an answer");
      if (!text) throw new InvalidAnswer(attempt.text, "some text");
      return note ? { text, note } : { text };
    }
    case "confirm": {
      const word = typed.toLowerCase();
      const selected = YES.has(word) ? "yes" : NO.has(word) ? "no" : undefined;
      if (!selected) throw new InvalidAnswer(attempt.text, "yes or no (also y/n, true/false, 1/0)");
      const text = selected === "yes" ? "Yes" : "No";
      return note ? { text, selected, note } : { text, selected };
    }
    case "select": {
      const options = card.input.options ?? [];
      const named =
        attempt.option !== undefined
          ? options.filter((o) => o.id === attempt.option)
          : optionsNamed(options, typed);
      const option = named.length === 1 ? named[0] : undefined;
      if (!option) throw unnamed(options, attempt.text, named);
      if (option.id === OTHER_OPTION) {
        const own = attempt.other?.trim() ? limited(attempt.other.trim(), "an answer") : undefined;
        if (own)
          return note
            ? { text: own, selected: option.id, note }
            : { text: own, selected: option.id };
        if (!note) {
          throw new InvalidAnswer(
            attempt.text,
            `your own words with "${option.label}" (add them as the note)`,
          );
        }
        return { text: note, selected: option.id };
      }
      return note
        ? { text: option.label, selected: option.id, note }
        : { text: option.label, selected: option.id };
    }
  }
}
