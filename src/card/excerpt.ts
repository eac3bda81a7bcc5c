// A long text cut where a reader expects it: at the end of a sentence near a length, so the
// head reads whole on a phone screen and the rest can be folded or linked. Pure: no I/O.

export interface Excerpt {
  head: string;
  /** What the head leaves out, or "" when the text fits. */
  rest: string;
}

/**
 * Cuts `text` after the sentence end closest to `near` characters (looking between half and
 * one and a half times `near`); without one, at a word boundary before `near`.
 */
export function cutAtSentence(text: string, near: number): Excerpt {
  if (text.length <= near * 1.2) return { head: text, rest: "" };
  const ends = [...text.matchAll(/[.!?…](?=\s)/g)]
    .map((match) => (match.index ?? 0) + 1)
    .filter((end) => end >= near / 2 && end <= near * 1.5);
  let cut = ends.sort((a, b) => Math.abs(a - near) - Math.abs(b - near))[0];
  if (cut === undefined) {
    const space = text.lastIndexOf(" ", near);
    cut = space > near / 2 ? space : near;
  }
  return { head: text.slice(0, cut).trimEnd(), rest: text.slice(cut).trimStart() };
}

/** Plain text shortened to `max` characters (not UTF-16 units) with an ellipsis. */
export function shorten(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars
    .slice(0, Math.max(0, max - 1))
    .join("")
    .trimEnd()}…`;
}
