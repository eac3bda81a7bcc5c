// The card file format: `---` YAML front matter, then an optional Markdown body.
// Rewrites splice only the changed top-level keys into the original text, so unknown keys,
// comments, quoting and the body stay byte-for-byte as they were.

import {
  type Document,
  isCollection,
  isMap,
  isPair,
  isScalar,
  Lexer,
  parseDocument,
  stringify,
  type YAMLMap,
} from "yaml";

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

/**
 * Hard limits on what a card file may hold, so no card can exhaust memory, time or the stack
 * of whoever reads it (a "billion laughs" alias bomb, a thousand nested brackets, a 10 MB
 * file). A card over a limit is an unreadable card like any other. Written in the README.
 */
export const CARD_LIMITS = {
  /** The file's size in bytes. */
  bytes: 256 * 1024,
  /** YAML alias expansions (`*name`), counting aliases inside what an alias refers to. */
  aliases: 20,
  /** Nesting of maps and lists in the front matter; a card's own fields need 4. */
  depth: 32,
} as const;

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

const TOO_DEEP = `it nests maps and lists deeper than the card limit of ${CARD_LIMITS.depth} levels`;
const TOO_MANY_ALIASES = `its YAML aliases (*name) expand more than the card limit of ${CARD_LIMITS.aliases} times`;

function checkSize(text: string): void {
  // A UTF-16 length under the limit is under it in UTF-8 bytes too, at most 3 bytes per unit.
  if (text.length * 3 <= CARD_LIMITS.bytes) return;
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > CARD_LIMITS.bytes) {
    throw new CardSyntaxError(
      `it is ${bytes} bytes, over the ${CARD_LIMITS.bytes}-byte card limit`,
    );
  }
}

/** The deepest nesting of collections under `root`, walked without recursion. */
function depthOf(root: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (isPair(node)) {
      stack.push([node.key, depth], [node.value, depth]);
    } else if (isCollection(node)) {
      deepest = Math.max(deepest, depth + 1);
      if (deepest > CARD_LIMITS.depth) return deepest;
      for (const item of node.items) stack.push([item, depth + 1]);
    }
  }
  return deepest;
}

/**
 * Whether flow collections (`[...]`, `{...}`) nest over the limit, from the lexer's tokens and
 * stopping there: the parser takes seconds on the 50,000 brackets a 100 KB card can hold.
 */
function flowTooDeep(front: string): boolean {
  if ((front.match(/[[{]/g)?.length ?? 0) <= CARD_LIMITS.depth) return false;
  let depth = 0;
  for (const token of new Lexer().lex(front)) {
    if (token === "[" || token === "{") {
      if (++depth > CARD_LIMITS.depth) return true;
    } else if (token === "]" || token === "}") depth--;
  }
  return false;
}

function parseFront(front: string): Document.Parsed {
  if (flowTooDeep(front)) throw new CardSyntaxError(TOO_DEEP);
  let doc: Document.Parsed;
  try {
    doc = parseDocument(front, { uniqueKeys: true, prettyErrors: false });
  } catch {
    // The parser recurses per nesting level; only a nesting far over the limit gets here.
    throw new CardSyntaxError(TOO_DEEP);
  }
  const first = doc.errors[0];
  if (first) {
    // The composer reports its own stack overflow as resource exhaustion.
    if (first.code === "RESOURCE_EXHAUSTION") throw new CardSyntaxError(TOO_DEEP);
    throw new CardSyntaxError(`its YAML does not parse (${first.message.split("\n")[0]})`);
  }
  if (depthOf(doc.contents) > CARD_LIMITS.depth) throw new CardSyntaxError(TOO_DEEP);
  return doc;
}

/** The front matter as plain data; aliases are expanded within the card limit. */
function frontData(doc: Document.Parsed): unknown {
  try {
    return doc.toJS({ maxAliasCount: CARD_LIMITS.aliases });
  } catch (error) {
    if (error instanceof ReferenceError && /alias count/i.test(error.message)) {
      throw new CardSyntaxError(TOO_MANY_ALIASES);
    }
    // An alias to an anchor defined later, or one that refers to itself.
    throw new CardSyntaxError(`its YAML does not resolve (${(error as Error).message})`);
  }
}

export function parseCardText(text: string): CardText {
  checkSize(text);
  const parts = splitCard(text);
  const data = frontData(parseFront(parts.front));
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
  // A card written with CRLF lines gets CRLF lines; the BOM, if any, stays in `head`.
  const eol = card.head.endsWith("\r\n") ? "\r\n" : "\n";
  const asYaml = (data: Record<string, unknown>) => {
    const out = stringify(data, YAML_OPTIONS);
    return eol === "\n" ? out : out.replace(/\n/g, eol);
  };

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
    const data = frontData(doc) as Record<string, unknown>;
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) delete data[key];
      else data[key] = value;
    }
    return card.head + asYaml(data) + card.tail;
  }

  // Splice from the end of the text backwards so earlier offsets stay valid.
  const spans = changedSpans(doc.contents.items, front, changes);
  spans.sort((a, b) => b.start - a.start);
  const done = new Set<string>();
  for (const span of spans) {
    const value = changes[span.key];
    let replacement = value === undefined ? "" : asYaml({ [span.key]: value });
    if (replacement && span.comment) {
      // The comment stays on the key's line, whatever the new value's shape.
      const lineEnd = replacement.indexOf(eol);
      replacement = replacement.slice(0, lineEnd) + span.comment + replacement.slice(lineEnd);
    }
    front = front.slice(0, span.start) + replacement + front.slice(span.end);
    done.add(span.key);
  }
  const added = Object.entries(changes).filter(
    ([key, value]) => !done.has(key) && value !== undefined,
  );
  if (added.length > 0) {
    if (front.length > 0 && !front.endsWith("\n")) front += eol;
    front += asYaml(Object.fromEntries(added));
  }
  return card.head + front + card.tail;
}

/** The whole lines of each top-level key `changes` names, with the comment ending its line. */
function changedSpans(items: YAMLMap["items"], front: string, changes: Record<string, unknown>) {
  const spans: { start: number; end: number; key: string; comment: string }[] = [];
  for (const pair of items) {
    if (!isScalar(pair.key) || !pair.key.range) continue;
    const key = String(pair.key.value);
    if (!(key in changes)) continue;
    const keyStart = pair.key.range[0];
    const valueRange = valueRangeOf(pair.value);
    const valueEnd = valueRange ? valueRange[2] : pair.key.range[2];
    const start = front.lastIndexOf("\n", keyStart - 1) + 1;
    let end = front.indexOf("\n", Math.max(valueEnd - 1, keyStart));
    end = end === -1 ? front.length : end + 1;
    spans.push({ start, end, key, comment: keyLineComment(front, pair.key.range, valueRange) });
  }
  return spans;
}

type Range = [number, number, number];

function valueRangeOf(value: unknown): Range | undefined {
  return value && typeof value === "object" && "range" in value && value.range
    ? (value.range as Range)
    : undefined;
}

/**
 * The comment that ends a key's line (`status: pending # set by ask`), with the spaces before
 * it, or "". Read from the parser's ranges, so a `#` inside a quoted value is never taken.
 */
function keyLineComment(front: string, keyRange: Range, valueRange: Range | undefined): string {
  let lineEnd = front.indexOf("\n", keyRange[0]);
  if (lineEnd === -1) lineEnd = front.length;
  // A value that starts on the key's line and ends there; else only `:` follows the key.
  const from = valueRange && valueRange[0] < lineEnd ? valueRange[1] : keyRange[1];
  if (from > lineEnd) return "";
  const rest = front.slice(from, lineEnd).replace(/\r$/, "");
  return /^(?:[ \t]*:)?([ \t]+#.*)$/.exec(rest)?.[1] ?? "";
}

/** The Markdown body of a card text (after the closing `---` line). */
export function bodyOf(card: Pick<CardText, "tail">): string {
  return card.tail.replace(CLOSE, "");
}
