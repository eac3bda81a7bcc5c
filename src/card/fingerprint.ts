// What a person was shown of a question, as a short digest: buttons, typed replies and the web
// form carry it, and an answer made for one digest is refused once the card carries another.

import { createHash } from "node:crypto";
import type { Question } from "./question.ts";

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
