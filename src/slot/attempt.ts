// A typed reply turned into an answer attempt for a given card: "b", "Finance",
// "Finance - only paper ones", "yes, but keep last month's", free text. It splits off a note only
// where the part before it names an option; it never guesses (resolveAnswer rejects the rest).

import { optionsOf, type Question } from "../card/question.ts";
import { type AnswerAttempt, findOption } from "../card/resolve.ts";

const NOTE_SEPARATOR = /\s+[-–—]\s+|\s*[:,;]\s+/;
const CONFIRM_WORD = /^(yes|no|y|n|true|false|1|0)\b[\s,:;.!–—-]*(.*)$/is;

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
      const options = optionsOf(card);
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
