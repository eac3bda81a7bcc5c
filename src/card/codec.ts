// The card file format: `---` YAML front matter, then an optional Markdown body.
// Rewrites splice only the changed top-level keys into the original text, so unknown keys,
// comments, quoting and the body stay byte-for-byte as they were.

import { isMap, isScalar, parseDocument, stringify } from "yaml";

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*(?:\r?\n|$)/m;

export interface CardText {
  /** The parsed front matter as plain data. */
  data: Record<string, unknown>;
  /** The front matter exactly as written, without the `---` lines. */
  front: string;
  /** Everything before the front matter text (the opening `---` line). */
  head: string;
  /** Everything after the front matter text (the closing `---` line and the body). */
  tail: string;
}

export class CardSyntaxError extends Error {
  override name = "CardSyntaxError";
}

const YAML_OPTIONS = { lineWidth: 100, minContentWidth: 40 } as const;

/** The three parts of a card text, without parsing the YAML. */
function splitCard(text: string): Omit<CardText, "data"> {
  const open = OPEN.exec(text);
  if (!open) throw new CardSyntaxError("it does not start with a '---' front-matter line");
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) throw new CardSyntaxError("its front matter has no closing '---' line");
  return { head: open[0], front: rest.slice(0, close.index), tail: rest.slice(close.index) };
}

function parseFront(front: string) {
  const doc = parseDocument(front, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    const first = doc.errors[0];
    throw new CardSyntaxError(`its YAML does not parse (${first?.message.split("\n")[0]})`);
  }
  return doc;
}

export function parseCardText(text: string): CardText {
  const parts = splitCard(text);
  const data = parseFront(parts.front).toJS({ maxAliasCount: 20 }) as unknown;
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new CardSyntaxError("its front matter is not a map of fields");
  }
  return { data: data as Record<string, unknown>, ...parts };
}

/** A new card file from fields in the given order and a body. */
export function serializeCard(fields: Record<string, unknown>, body = ""): string {
  const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const separator = body && !body.startsWith("\n") ? "\n" : "";
  return `---\n${stringify(clean, YAML_OPTIONS)}---\n${separator}${body}`;
}

/**
 * The card text with top-level keys set (a value) or removed (undefined). Untouched keys,
 * comments and the body are kept byte-for-byte; a new key goes at the end of the front matter.
 */
export function rewriteCardText(text: string, changes: Record<string, unknown>): string {
  const card = splitCard(text);
  let front = card.front;
  const doc = parseFront(front);
  if (!isMap(doc.contents)) throw new CardSyntaxError("its front matter is not a map of fields");

  // Splicing lines is only sound for the usual layout: a block map whose keys start their
  // lines. Any other (a flow map `{...}`, an indented map) is written out whole: every field
  // survives, its formatting and comments cannot.
  const spliceable =
    !doc.contents.flow &&
    doc.contents.items.every((pair) => {
      const start = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      return start !== undefined && front.lastIndexOf("\n", start - 1) + 1 === start;
    });
  if (!spliceable) {
    const data = doc.toJS({ maxAliasCount: 20 }) as Record<string, unknown>;
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) delete data[key];
      else data[key] = value;
    }
    return card.head + stringify(data, YAML_OPTIONS) + card.tail;
  }

  // Splice from the end of the text backwards so earlier offsets stay valid.
  const spans: { start: number; end: number; key: string }[] = [];
  for (const pair of doc.contents.items) {
    if (!isScalar(pair.key) || !pair.key.range) continue;
    const key = String(pair.key.value);
    if (!(key in changes)) continue;
    const keyStart = pair.key.range[0];
    const valueEnd =
      pair.value && typeof pair.value === "object" && "range" in pair.value && pair.value.range
        ? (pair.value.range as [number, number, number])[2]
        : pair.key.range[2];
    const start = front.lastIndexOf("\n", keyStart - 1) + 1;
    let end = front.indexOf("\n", Math.max(valueEnd - 1, keyStart));
    end = end === -1 ? front.length : end + 1;
    spans.push({ start, end, key });
  }
  spans.sort((a, b) => b.start - a.start);
  const done = new Set<string>();
  for (const span of spans) {
    const value = changes[span.key];
    const replacement = value === undefined ? "" : stringify({ [span.key]: value }, YAML_OPTIONS);
    front = front.slice(0, span.start) + replacement + front.slice(span.end);
    done.add(span.key);
  }
  const added = Object.entries(changes).filter(
    ([key, value]) => !done.has(key) && value !== undefined,
  );
  if (added.length > 0) {
    if (front.length > 0 && !front.endsWith("\n")) front += "\n";
    front += stringify(Object.fromEntries(added), YAML_OPTIONS);
  }
  return card.head + front + card.tail;
}

/** The Markdown body of a card text (after the closing `---` line). */
export function bodyOf(card: Pick<CardText, "tail">): string {
  return card.tail.replace(CLOSE, "");
}
