// The text input: the boxholder's own words, as typed (a lone character is asked about first:
// more likely a stray key than an answer). It carries no options and recommends none. Pure.

import { InvalidAnswer } from "../../errors.ts";
import type { InputType } from "./contract.ts";
import { answerOf, limited } from "./naming.ts";
import { noOptionIssues } from "./option-rules.ts";

export const text: InputType = {
  name: "text",
  summary: "text: free text",
  takesOptions: false,
  answersYesNo: false,

  issues(card) {
    const issues = noOptionIssues(card);
    if (card.recommended !== undefined) {
      issues.push({ path: ["recommended"], message: "a text question has no option to recommend" });
    }
    return issues;
  },

  options: () => [],
  choices: () => [],
  fromText: (_input, typed) => ({ text: typed.trim() }),

  resolve(_input, attempt) {
    const words = limited(attempt.text.trim(), "an answer");
    if (!words) throw new InvalidAnswer(attempt.text, "some text");
    return answerOf(words, undefined, attempt.note);
  },

  picked: () => [],
  declines: () => false,
  strayKey: (typed) => Array.from(typed.trim()).length === 1,
  buttons: () => ({ layout: "row", buttons: [] }),
  form: () => [{ part: "words" }, { part: "send" }],

  fromForm(_input, given) {
    return given.text?.trim()
      ? { attempt: { text: given.text } }
      : { problem: "Write an answer first; nothing was recorded." };
  },

  hint: { what: "your answer in your own words" },
};
