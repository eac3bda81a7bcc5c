// Turning card text into a validated question: every failure becomes one readable reason.

import { createHash } from "node:crypto";
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

/**
 * What a button was made for: the prompt and the options. A tap made for one fingerprint is
 * refused once the card carries another (its options were edited since it was shown).
 */
export function questionFingerprint(card: Pick<Question, "prompt" | "input">): string {
  const shape = JSON.stringify([card.prompt, card.input.type, card.input.options ?? []]);
  return createHash("sha256").update(shape).digest("base64url").slice(0, 16);
}

/**
 * The one check that a card is still what the person saw when they answered (a tap, a typed
 * reply, the web form): every surface and the answer transition ask this, never a copy.
 */
export function shownAsIs(card: Pick<Question, "prompt" | "input">, shown: string): boolean {
  return questionFingerprint(card) === shown;
}
