// The multiselect input: several of the card's options. Typed as letters or labels separated
// by commas ("a, c", "Unit tests, Lint"), each item read exactly as a select's one pick is (a
// letter that is also another option's label names none); duplicates collapse, and one item
// that names no option refuses the whole answer, naming that item. On a chat its buttons toggle
// and Send records the picks; on a form, checkboxes. The answer's `selected` is the picked ids
// joined by commas in the options' order, its text their labels joined by ", " (own words in
// the place of `_other`). Pure.

import { InvalidAnswer } from "../../errors.ts";
import type { AnswerAttempt, CardInput, InputType } from "./contract.ts";
import { answerOf, describeChoices, ownWords, ownWordsProblem } from "./naming.ts";
import { type Option, OTHER_OPTION } from "./option.ts";
import { choicesOf, optionIssues } from "./option-rules.ts";
import { picksNamed } from "./picks.ts";

/** What joins the picked ids in `answer.selected` (and an attempt's `option`). */
export const PICK_SEPARATOR = ",";

/** A note after the picks: " - ", ": " or "; " (a comma separates the picks themselves). */
const NOTE_AFTER_PICKS = /\s+[-–—]\s+|\s*[:;]\s+/g;

export const multiselect: InputType = {
  name: "multiselect",
  summary: "multiselect: pick one or more of `options`",
  takesOptions: true,
  answersYesNo: false,
  issues: (card) => optionIssues(card, "multiselect"),
  options: (input) => input.options ?? [],
  choices: (card) => choicesOf(card, card.input.options ?? [], true),
  fromText: attemptOfWords,
  resolve: resolvePicks,
  picked: (answer) => (answer.selected ? answer.selected.split(PICK_SEPARATOR) : []),
  declines: () => false,
  strayKey: () => false,

  buttons: (card, picks) => ({
    layout: "by-width",
    buttons: [
      ...multiselect
        .choices(card)
        .map((c) => ({ ...c, action: "toggle" as const, picked: picks.includes(c.id) })),
      { action: "send" },
    ],
  }),

  form: (card) => [
    { part: "choices", multiple: true, choices: multiselect.choices(card) },
    { part: "note", folded: true },
    { part: "send" },
  ],

  fromForm(input, given) {
    if (given.choices.length === 0) {
      return { problem: "Pick at least one of the choices first; nothing was recorded." };
    }
    const options = input.options ?? [];
    const problem = ownWordsProblem(options, given.choices, given.other, given.note);
    if (problem) return { problem };
    const option = given.choices.join(PICK_SEPARATOR);
    return { attempt: { text: option, option, other: given.other, note: given.note } };
  },

  hint: { what: "letters or labels separated by commas", note: 'optionally "a, c - note"' },
};

/** Typed words: the picks, with a note split off after them where the rest reads as picks. */
function attemptOfWords(input: CardInput, typed: string): AnswerAttempt {
  const text = typed.trim();
  const options = input.options ?? [];
  if ("picks" in picksNamed(options, text)) return { text };
  for (const split of text.matchAll(NOTE_AFTER_PICKS)) {
    if (split.index === 0) continue;
    const choice = text.slice(0, split.index);
    const note = text.slice(split.index + split[0].length).trim();
    if (note && "picks" in picksNamed(options, choice)) return { text: choice, note };
  }
  return { text };
}

function resolvePicks(input: CardInput, attempt: AnswerAttempt) {
  const options = input.options ?? [];
  const picks =
    attempt.option !== undefined ? picksById(options, attempt) : typedPicks(options, attempt);
  if (picks.length === 0) {
    throw new InvalidAnswer(attempt.text, `one or more of ${describeChoices(options)}`);
  }
  const other = picks.find((o) => o.id === OTHER_OPTION);
  const own = other ? ownWords(other, attempt.text, attempt.other, attempt.note) : undefined;
  const text = picks.map((o) => (o === other ? (own?.words ?? "") : o.label)).join(", ");
  const selected = picks.map((o) => o.id).join(PICK_SEPARATOR);
  return answerOf(text, selected, own ? own.note : attempt.note);
}

/** The options an attempt names by id (checkboxes, a Send), in the options' order. */
function picksById(options: Option[], attempt: AnswerAttempt): Option[] {
  const ids = (attempt.option ?? "").split(PICK_SEPARATOR).filter((id) => id !== "");
  const unknown = ids.find((id) => !options.some((o) => o.id === id));
  if (unknown !== undefined) {
    throw new InvalidAnswer(
      attempt.text,
      `options of this question, and "${unknown}" is none of ${describeChoices(options)}`,
    );
  }
  return options.filter((o) => ids.includes(o.id));
}

function typedPicks(options: Option[], attempt: AnswerAttempt): Option[] {
  const named = picksNamed(options, attempt.text.trim());
  if ("refusal" in named) throw new InvalidAnswer(attempt.text, named.refusal);
  return named.picks;
}
