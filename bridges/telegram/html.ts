// Telegram HTML: every text that comes from a card or a person is escaped here before it is
// put into a message, and shortened by its escaped length so a limit is never crossed.

// Plain text is shortened as every surface shortens it.
export { shorten } from "../../src/slot/port.ts";

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (ch) => ENTITIES[ch] as string);
}

/**
 * `text` up to `end` UTF-16 units (as Telegram counts), never through the middle of a
 * character of two units (an emoji): half of one is not UTF-8, and Telegram refuses it.
 */
export function headOf(text: string, end: number): string {
  const last = text.charCodeAt(end - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? end - 1 : end);
}

/** Plain text cut to at most `max` UTF-16 units with an ellipsis (see headOf). */
export function cutWithin(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${headOf(text, max - 1).trimEnd()}…`;
}

/** Escapes `text`, shortened so that its escaped form has at most `max` characters. */
export function escapeWithin(text: string, max: number): string {
  const whole = escapeHtml(text);
  if (whole.length <= max) return whole;
  let out = "";
  for (const ch of Array.from(text)) {
    const piece = escapeHtml(ch);
    if (out.length + piece.length > max - 1) break;
    out += piece;
  }
  return `${out.trimEnd()}…`;
}

/** One line: runs of white space become one space. */
export function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
