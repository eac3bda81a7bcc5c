// What every input type is: the one interface its room (select.ts, confirm.ts, ...) implements,
// and the surface-neutral data it offers (buttons, form parts, the typed hint) that the chat
// bridges, the web page and any later surface render without asking which type it is. Types
// only. An input type never reads a surface, a file or the clock.

import type { Answer } from "../answer.ts";
import type { Option } from "./option.ts";

/** A rule broken, with the field it concerns (as zod paths name fields). */
export type Issue = { path: (string | number)[]; message: string };

/** A card's `input`, as the rules and the offers read it. */
export interface CardInput {
  type: string;
  options?: Option[] | undefined;
}

/** What an input type reads of a card: its input and its recommendation. */
export interface InputCard {
  input: CardInput;
  recommended?: string | undefined;
}

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
   * The exact pick where the surface knows it, as `answer.selected` records it (a radio or a
   * button names one option id; checkboxes or a multi-select's Send name their ids joined by
   * commas): resolved by id only, never as a label or letter, since one option's label may be
   * another option's id.
   */
  option?: string | undefined;
}

/** One option as a surface offers it. */
export interface Choice {
  id: string;
  label: string;
  /** The letter typed for it ("a"), where options are lettered; yes/no are not. */
  letter: string | undefined;
  recommended: boolean;
  /** The `_other` option: its answer is the boxholder's own words. */
  ownWords: boolean;
}

/**
 * A chat button an input type offers. `answer`: a tap records this option. `toggle`: a tap
 * picks or unpicks it (`picked`: whether it shows picked now). `send`: records the picks.
 */
export type ChoiceButton =
  | (Choice & { action: "answer" })
  | (Choice & { action: "toggle"; picked: boolean })
  | { action: "send" };

/** The chat buttons of a question: `row` puts them in one row (Yes/No), `by-width` as fits. */
export interface Buttons {
  layout: "row" | "by-width";
  buttons: ChoiceButton[];
}

/**
 * One part of a question's web form, in order: the choices (radios, or checkboxes where
 * `multiple`), named `choice`, with an own-words field `other` beside `_other`; the optional
 * `note` (folded away, or open); the answer in one's own words (`text`); a Send button; or one
 * submit button per choice, each sending its id as `choice`.
 */
export type FormPart =
  | { part: "choices"; multiple: boolean; choices: Choice[] }
  | { part: "note"; folded: boolean }
  | { part: "words" }
  | { part: "send" }
  | { part: "buttons"; choices: Choice[] };

/** What a web form (or any form) sent back: the values named `choice`, and the typed fields. */
export interface FormGiven {
  choices: string[];
  other?: string | undefined;
  note?: string | undefined;
  text?: string | undefined;
}

/** A form's answer read: the attempt it makes, or why there is none, in the form's words. */
export type FormRead = { attempt: AnswerAttempt } | { problem: string };

/** How to answer by typing: `what` follows "Type " or "Reply with "; `note` how to add one. */
export interface TypedHint {
  what: string;
  note?: string | undefined;
}

/** An input type: its card rules, its reading of answers, and what it offers to be answered. */
export interface InputType {
  /** The card's `input.type`. */
  readonly name: string;
  /** One line an asker reads (the CLI's help, MCP's ask_human): "select: pick one of options". */
  readonly summary: string;
  /** True when the input carries `options` (the rules then check them). */
  readonly takesOptions: boolean;
  /** True when yes and no are its own answers (a confirm's): never a confirming step's. */
  readonly answersYesNo: boolean;
  /** The card rules of this type (on create and on every load), besides the common ones. */
  issues(card: InputCard): Issue[];
  /** The options an answer names: a select's own, a confirm's yes and no, none for text. */
  options(input: CardInput): Option[];
  /** The options as offered to be picked, lettered where letters pick them (yes/no are not). */
  choices(card: InputCard): Choice[];
  /** Typed words as the attempt they make: the pick, with a note split off where one is. */
  fromText(input: CardInput, typed: string): AnswerAttempt;
  /**
   * The attempt as the answer recorded, or an InvalidAnswer saying what would do. The note
   * comes trimmed (absent when empty) and within the answer limit.
   */
  resolve(input: CardInput, attempt: AnswerAttempt): Answer;
  /** The option ids an answer picked, in the options' order (none for text). */
  picked(answer: Answer): string[];
  /** True when the answer declines (a confirm's no): nothing irreversible follows it. */
  declines(answer: Answer): boolean;
  /** True when typed words are more likely a stray key than an answer (one character of text). */
  strayKey(typed: string): boolean;
  /** The chat buttons, with `picks` (option ids) shown picked where buttons toggle. */
  buttons(card: InputCard, picks: readonly string[]): Buttons;
  /** The web form's parts, in order. */
  form(card: InputCard): FormPart[];
  /** A form's values as the attempt they make, or why they make none. */
  fromForm(input: CardInput, given: FormGiven): FormRead;
  /** How to answer by typing. */
  readonly hint: TypedHint;
}
