// Turning card text into a validated question: every failure becomes one readable reason.

import { CardSyntaxError, parseCardText } from "./codec.ts";
import { describeIssues, type Question, QuestionSchema } from "./question.ts";

export type ParsedQuestion =
  | { ok: true; card: Question; text: string }
  | { ok: false; reason: string; text: string };

/** Never throws: whatever a card file holds, the answer is a card or a reason. */
export function parseQuestion(text: string): ParsedQuestion {
  try {
    const result = QuestionSchema.safeParse(parseCardText(text).data);
    if (!result.success) return { ok: false, reason: describeIssues(result.error), text };
    return { ok: true, card: result.data, text };
  } catch (error) {
    if (error instanceof CardSyntaxError) return { ok: false, reason: error.message, text };
    // Card content is untrusted: a failure inside the parser or the schema is still this
    // card's problem, never the box's.
    return { ok: false, reason: `it cannot be read (${(error as Error).message})`, text };
  }
}
