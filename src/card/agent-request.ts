// The request a coding agent's permission question allows, as its card carries it (`request`:
// the whole command, or the tool's whole input as JSON on one line, with hidden characters
// spelled out), and the rule that an allow is recorded only on a surface that showed the
// request whole. The prompt holds the request when it is short (then every surface that shows
// the prompt whole shows it); a longer one is in the prompt as its head and tail, and only a
// surface that shows the card's `request` whole (the web page, `qbridge chat`, `qbridge show`)
// may record an allow. Pure.

import { visibleLine, visibleLines } from "./agent-text.ts";
import type { Question } from "./question.ts";

/**
 * A prompt of this many characters is shown whole by every chat surface (Telegram's tightest
 * cut is no shorter): a request fits the prompt whole only within it.
 */
export const PROMPT_SHOWN_CHARS = 200;

/** Answers that allow nothing: a permission's Deny and Stop, a confirm's No, a plan's Keep planning. */
const REFUSALS = ["deny", "no", "stop", "keep-planning"];

/** The request on one line, as a prompt shows it: line breaks as ⏎, tabs as spaces. */
export function requestInOneLine(request: string): string {
  return request.replace(/\r?\n/g, "⏎").replace(/\t/g, " ");
}

/**
 * How many characters of a prompt a surface must show whole to have shown the card's request:
 * the prompt's length when the prompt holds the request whole, Infinity when it holds only its
 * head and tail (the surface must show `request` itself), 0 for a card without one.
 */
export function charsToShowRequest(card: Pick<Question, "prompt" | "request">): number {
  if (card.request === undefined) return 0;
  return card.prompt.includes(requestInOneLine(card.request))
    ? card.prompt.length
    : Number.POSITIVE_INFINITY;
}

/** True when the card's whole request is more than its prompt shows (surfaces show it apart). */
export function requestBeyondPrompt(card: Pick<Question, "prompt" | "request">): boolean {
  return charsToShowRequest(card) === Number.POSITIVE_INFINITY;
}

/** True when an answer selecting `selected` would allow the card's request. */
export function allowsRequest(card: Pick<Question, "request">, selected: string | undefined) {
  return card.request !== undefined && !REFUSALS.includes(selected ?? "");
}

/**
 * The one check before an allow is recorded: a surface that shows `shown` characters of a
 * prompt whole (Infinity: the whole card) may allow the card's request only when it showed all
 * of it. Undefined when it may; else the sentence that says where to allow it.
 */
export function unseenAllow(
  card: Pick<Question, "prompt" | "request">,
  selected: string | undefined,
  shown: number,
): string | undefined {
  if (!allowsRequest(card, selected) || charsToShowRequest(card) <= shown) return undefined;
  return "this request is longer than this screen shows, so it can be allowed only where it is shown whole: open it on the web page (or in qbridge chat); Deny works here";
}

/** The most a card's `request` holds; a longer request is answered at the agent's own screen. */
export const REQUEST_MAX_CHARS = 200_000;

const SUMMARY_KEYS = ["file_path", "notebook_path", "path", "url", "query"];

/** True when the UTF-16 unit at `at` is the second half of a character of two (an emoji). */
function secondHalf(text: string, at: number): boolean {
  const unit = text.charCodeAt(at);
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * The text with its middle left out and counted, within `max` characters:
 * "head … 16,412 characters … tail". The whole text when it fits. It never cuts through a
 * character of two UTF-16 units: half of one is no text a chat takes.
 */
export function headAndTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = (n: number) => ` … ${n.toLocaleString("en-US")} characters … `;
  const room = Math.max(20, max - marker(text.length).length);
  const headLength = Math.ceil(room * 0.6);
  const end = secondHalf(text, headLength) ? headLength - 1 : headLength;
  const tailFrom = text.length - (room - headLength);
  const start = secondHalf(text, tailFrom) ? tailFrom + 1 : tailFrom;
  return `${text.slice(0, end)}${marker(start - end)}${text.slice(start)}`;
}

/** A tool call's request as its card carries it: the command, else the input as JSON. */
export function requestOf(input: Record<string, unknown>): string {
  const command = input.command;
  const text =
    typeof command === "string" && command.trim() !== "" ? command.trim() : JSON.stringify(input);
  return visibleLines(text);
}

/**
 * The prompt of a permission question: the tool's file, URL or query where it names one ("Allow
 * Write: /etc/hosts?": the rest of the input is shown apart, so the prompt never holds the whole
 * request); else "Allow <tool>: <request>?" when that fits PROMPT_SHOWN_CHARS, or the request's
 * head and tail, so the prompt never passes for the whole of a request it does not hold.
 */
export function requestPrompt(tool: string, input: Record<string, unknown>): string {
  const name = visibleLine(tool);
  const key =
    typeof input.command === "string"
      ? undefined
      : SUMMARY_KEYS.find((k) => typeof input[k] === "string");
  const whole = `Allow ${name}: ${requestInOneLine(requestOf(input))}?`;
  if (key === undefined && whole.length <= PROMPT_SHOWN_CHARS) return whole;
  const shown = key ? visibleLine(String(input[key])) : requestInOneLine(requestOf(input));
  const room = Math.max(60, PROMPT_SHOWN_CHARS - `Allow ${name}: ?`.length);
  return `Allow ${headAndTail(name, 60)}: ${headAndTail(shown, room)}?`;
}
