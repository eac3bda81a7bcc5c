// An agent's own text as a card shows it: every character that could hide or reorder what a
// person reads is spelled out, so what is on the screen is what the agent sent. Control
// characters (but the line breaks and tabs of a multi-line text), format characters (the bidi
// embeddings, overrides and isolates U+202A-202E and U+2066-2069, the marks U+200E, U+200F and
// U+061C, zero-width spaces and joiners, the byte-order mark) and line and paragraph
// separators become `<U+202E>`. Pure.

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const HIDDEN_BUT_BREAKS = /(?![\n\t])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

function codePoint(ch: string): string {
  return `<U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}>`;
}

/** The text with every hidden character spelled out, line breaks and tabs too. */
export function visible(text: string): string {
  return text.replace(HIDDEN, codePoint);
}

/** The text with every hidden character spelled out but its line breaks and tabs. */
export function visibleLines(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(HIDDEN_BUT_BREAKS, codePoint);
}

/**
 * The text as a terminal may print it: a CRLF made a line break, and every other control
 * character but line breaks and tabs spelled out (a CR, an ESC or a C1 CSI would move, clear or
 * recolour what the screen shows). Other characters stay: the screen shows them as they are.
 */
export function controlsSpelled(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(/(?![\n\t])\p{Cc}/gu, codePoint);
}

/** One line of it: line breaks shown as ⏎, tabs as spaces, the rest spelled out. */
export function visibleLine(text: string): string {
  return visible(text.replace(/\r?\n/g, "⏎").replace(/\t/g, " "));
}

/**
 * The agent's words quoted so that they cannot close their own quotes or pass for the card's
 * lines: one line, in quotes, with a quote or backslash inside escaped.
 */
export function quotedWords(text: string): string {
  return `"${visibleLine(text.trim()).replace(/[\\"]/g, (ch) => `\\${ch}`)}"`;
}
