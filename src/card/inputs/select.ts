// The select input: one of the card's options, picked by a tap, a radio, or typed as its letter,
// its label (ignoring case) or its id, with an optional note ("b - only paper ones"). `_other`
// is an ordinary option whose answer is the boxholder's own words. Pure.

import type { InputType } from "./contract.ts";
import {
  answerOf,
  findOption,
  NOTE_SEPARATOR,
  optionsNamed,
  ownWords,
  ownWordsProblem,
  unnamed,
} from "./naming.ts";
import { OTHER_OPTION } from "./option.ts";
import { choicesOf, optionIssues } from "./option-rules.ts";

export const select: InputType = {
  name: "select",
  summary: "select: pick one of `options`",
  takesOptions: true,
  answersYesNo: false,
  issues: (card) => optionIssues(card, "select"),
  options: (input) => input.options ?? [],
  choices: (card) => choicesOf(card, card.input.options ?? [], true),

  fromText(input, typed) {
    const text = typed.trim();
    const options = input.options ?? [];
    if (findOption(options, text)) return { text };
    const split = NOTE_SEPARATOR.exec(text);
    if (split && split.index > 0) {
      const choice = text.slice(0, split.index);
      const note = text.slice(split.index + split[0].length).trim();
      if (findOption(options, choice) && note) return { text: choice, note };
    }
    return { text };
  },

  resolve(input, attempt) {
    const options = input.options ?? [];
    const named =
      attempt.option !== undefined
        ? options.filter((o) => o.id === attempt.option)
        : optionsNamed(options, attempt.text.trim());
    const option = named.length === 1 ? named[0] : undefined;
    if (!option) throw unnamed(options, attempt.text, named);
    if (option.id !== OTHER_OPTION) return answerOf(option.label, option.id, attempt.note);
    const own = ownWords(option, attempt.text, attempt.other, attempt.note);
    return answerOf(own.words, option.id, own.note);
  },

  picked: (answer) => (answer.selected === undefined ? [] : [answer.selected]),
  declines: () => false,
  strayKey: () => false,

  buttons: (card) => ({
    layout: "by-width",
    buttons: select.choices(card).map((c) => ({ ...c, action: "answer" as const })),
  }),

  form: (card) => [
    { part: "choices", multiple: false, choices: select.choices(card) },
    { part: "note", folded: true },
    { part: "send" },
  ],

  fromForm(input, given) {
    const [choice] = given.choices;
    if (choice === undefined || given.choices.length > 1) {
      return { problem: "Pick one of the choices first; nothing was recorded." };
    }
    const options = input.options ?? [];
    const problem = ownWordsProblem(options, [choice], given.other, given.note);
    if (problem) return { problem };
    // A radio names its option by id: `option` keeps it from being read as a label or letter.
    // The own words are the answer; a note written beside them stays a note.
    return choice === OTHER_OPTION
      ? { attempt: { text: choice, option: choice, other: given.other, note: given.note } }
      : { attempt: { text: choice, option: choice, note: given.note } };
  },

  hint: { what: "a letter or a label", note: 'optionally "Label - note"' },
};
