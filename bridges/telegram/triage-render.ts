// How triage looks in Telegram: the digest /waiting shows with a backlog, the list of exactly
// what accepting would record, and what was recorded and skipped. Pure: the rule and the
// recording are the slot's (src/slot/triage.ts); text in, HTML out, within the limits.

import {
  type Digest,
  type DigestLine,
  type OfferItem,
  type OfferResult,
  recommendationWords,
  TRIAGE_NOTE,
} from "../../src/slot/port.ts";
import { escapeWithin, flat, shorten } from "./html.ts";
import { MAX_BUTTON_CHARS } from "./limits.ts";

/** Room per prompt: 10 lines of this stay far under Telegram's 4,096 characters. */
const PROMPT_CHARS = 160;
const ANSWER_CHARS = 80;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function prompt(text: string): string {
  return escapeWithin(flat(text), PROMPT_CHARS);
}

function recommendation(line: DigestLine): string {
  return recommendationWords(line, (choice) => `⭐ ${escapeWithin(flat(choice), ANSWER_CHARS)}`);
}

export function digestHtml(digest: Digest): string {
  const head =
    digest.waiting > digest.lines.length
      ? `📋 <b>${digest.waiting} questions wait.</b> The first ${digest.lines.length}:`
      : `📋 <b>${digest.waiting} questions wait:</b>`;
  const lines = digest.lines.map(
    (line, i) => `${i + 1}. ${prompt(line.prompt)}\n    ${recommendation(line)}`,
  );
  const tail = digest.offer.length
    ? `Tap a number to see that question now, or accept the ${plural(digest.offer.length, "recommendation")} (you see what is recorded first).`
    : "Tap a number to see that question now.";
  return [head, ...lines, tail].join("\n");
}

/** The text of a line's button: its number and the start of its prompt. */
export function lineButtonText(index: number, line: DigestLine): string {
  return shorten(`${index + 1}. ${flat(line.prompt)}`, MAX_BUTTON_CHARS);
}

export function acceptButtonText(n: number): string {
  return `✅ Accept ${plural(n, "recommendation")}`;
}

function itemLine(item: OfferItem): string {
  return `• ${prompt(item.prompt)} → <b>${escapeWithin(flat(item.answer), ANSWER_CHARS)}</b>`;
}

/** The confirm step: exactly what the second tap records. */
export function offerHtml(items: OfferItem[]): string {
  return [
    `Record ${plural(items.length, "answer")}? Each as its own answer, with the note “${TRIAGE_NOTE}”:`,
    ...items.map(itemLine),
    "Nothing is recorded until you tap Record.",
  ].join("\n");
}

export function recordButtonText(n: number): string {
  return `✅ Record these ${n}`;
}

/** After the second tap: what was recorded and what was skipped, each named. */
export function offerResultHtml(result: OfferResult, replayed = false): string {
  const parts: string[] = [];
  if (replayed) parts.push("This list was confirmed before; nothing more was recorded now.");
  parts.push(
    result.recorded.length
      ? `✅ Recorded ${plural(result.recorded.length, "answer")}:`
      : "Nothing was recorded.",
  );
  parts.push(...result.recorded.map(itemLine));
  if (result.skipped.length) {
    parts.push(`Skipped ${result.skipped.length}:`);
    for (const s of result.skipped)
      parts.push(
        `• “${prompt(s.prompt)}” ${escapeWithin(flat(s.why), PROMPT_CHARS)}; nothing was recorded for it.`,
      );
  }
  return parts.join("\n");
}
