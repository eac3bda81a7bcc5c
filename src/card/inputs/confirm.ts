// The confirm input: yes or no (typed also y/n, true/false, 1/0), with an optional note ("yes,
// but keep last month's"). It carries no options of its own; its answers are these two. Pure.

import { InvalidAnswer } from "../../errors.ts";
import type { InputType } from "./contract.ts";
import { answerOf } from "./naming.ts";
import type { Option } from "./option.ts";
import { choicesOf, noOptionIssues } from "./option-rules.ts";

/** The two answers of a confirm question. */
export const CONFIRM_OPTIONS: Option[] = [
  { id: "yes", label: "Yes" },
  { id: "no", label: "No" },
];

const YES = new Set(["yes", "y", "true", "1"]);
const NO = new Set(["no", "n", "false", "0"]);
const CONFIRM_WORD = /^(yes|no|y|n|true|false|1|0)\b[\s,:;.!–—-]*(.*)$/is;

export const confirm: InputType = {
  name: "confirm",
  summary: "confirm: yes or no",
  takesOptions: false,
  answersYesNo: true,

  issues(card) {
    const issues = noOptionIssues(card);
    if (card.recommended !== undefined && !["yes", "no"].includes(card.recommended)) {
      issues.push({
        path: ["recommended"],
        message: 'a confirm question recommends "yes" or "no"',
      });
    }
    return issues;
  },

  options: () => CONFIRM_OPTIONS,
  choices: (card) => choicesOf(card, CONFIRM_OPTIONS, false),

  fromText(_input, typed) {
    const text = typed.trim();
    const match = CONFIRM_WORD.exec(text);
    if (!match) return { text };
    const note = match[2]?.trim();
    return note ? { text: match[1] as string, note } : { text: match[1] as string };
  },

  resolve(_input, attempt) {
    const word = attempt.text.trim().toLowerCase();
    const selected = YES.has(word) ? "yes" : NO.has(word) ? "no" : undefined;
    if (!selected) throw new InvalidAnswer(attempt.text, "yes or no (also y/n, true/false, 1/0)");
    return answerOf(selected === "yes" ? "Yes" : "No", selected, attempt.note);
  },

  picked: (answer) => (answer.selected === undefined ? [] : [answer.selected]),
  declines: (answer) => answer.selected === "no",
  strayKey: () => false,

  buttons: (card) => ({
    layout: "row",
    buttons: confirm.choices(card).map((c) => ({ ...c, action: "answer" as const })),
  }),

  form: (card) => [
    { part: "note", folded: false },
    { part: "buttons", choices: confirm.choices(card) },
  ],

  fromForm(_input, given) {
    const [choice] = given.choices;
    if (choice === undefined || given.choices.length > 1) {
      return { problem: "Pick one of the choices first; nothing was recorded." };
    }
    return { attempt: { text: choice, note: given.note } };
  },

  hint: { what: "yes or no", note: 'optionally "yes - note"' },
};
