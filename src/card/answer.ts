// An answer as a card (and its follow-up job) records it: the text, the pick, and a note. Pure.
// `selected` is the option id picked; a multi-select's ids are joined by commas in the options'
// order (ids never hold a comma), so every reader of one text field reads every input type.

import { z } from "zod";
import { cardText } from "./field-rules.ts";

export const AnswerSchema = z.object({
  text: cardText(),
  selected: cardText().optional(),
  note: cardText().optional(),
});
export type Answer = z.infer<typeof AnswerSchema>;
