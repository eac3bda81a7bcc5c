// A reader for the usual shape of card front matter: what our own writer (yaml.stringify in
// codec.ts) puts in a card, and what people write like it. Block maps and lists indented by
// two, plain, quoted and block scalars, empty [] and {}. Reading a card this way does not load
// the yaml package, which was the largest part of `qbridge show` after node's own start.
// It must never give a value the yaml path would not (parseDocument with unique keys, the core
// schema, then toJS): anything it cannot read with certainty gives undefined, and the caller
// hands that text to yaml, which reads it or names what is wrong. It never throws.

import {
  blank,
  decline,
  decodeDoubleQuoted,
  indentOf,
  readBlockScalar,
  resolvePlain,
  unfoldLines,
} from "./usual-scalars.ts";

/**
 * Characters the reader leaves to yaml wherever they are: tabs and carriage returns (YAML
 * gives them rules of their own), other C0 controls, U+FFFE and U+FFFF, unpaired surrogates.
 * Our writer escapes the controls and surrogates in double quotes; a card with a tab in a
 * text is read by yaml.
 */
const LEFT_TO_YAML =
  /[^\n -\ufffd]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * A key and what follows its colon. Keys are plain words as card fields are; a word the core
 * schema reads as null or a boolean, `__proto__` (which toJS treats apart) and YAML's
 * 1,024-character limit on implicit keys stay with yaml.
 */
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_.-]{0,127}):(?: (.*))?$/s;
const SPECIAL_KEY = /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|__proto__)$/;

/**
 * The front matter (the text between the `---` lines) as plain data, or undefined when the
 * text is anything but the usual shape. `depthLimit` is the card limit on nesting: a deeper
 * text is left to yaml, which refuses it.
 */
export function readUsualFront(
  front: string,
  depthLimit: number,
): Record<string, unknown> | undefined {
  if (!front.endsWith("\n") || LEFT_TO_YAML.test(front)) return undefined;
  try {
    return new FrontReader(front.slice(0, -1).split("\n"), depthLimit).document();
  } catch {
    // Declined, or a case this reader did not foresee: either way yaml reads the text.
    return undefined;
  }
}

/** Reads lines top-down; `at` is the next line not yet read. */
class FrontReader {
  at = 0;
  constructor(
    private readonly lines: string[],
    private readonly depthLimit: number,
  ) {}

  document(): Record<string, unknown> {
    const data = this.map(0, 1);
    if (this.nextLine() !== undefined || Object.keys(data).length === 0) decline();
    return data;
  }

  /** The next line that is not blank, skipping blank ones (they separate, nothing more). */
  private nextLine(): string | undefined {
    while (blank(this.lines[this.at])) this.at++;
    return this.lines[this.at];
  }

  private enter(depth: number): void {
    if (depth > this.depthLimit) decline();
  }

  /**
   * A block map whose keys are at column `col`. In a list item (`- key: value`) its first
   * entry is the rest of the item's line, `first`.
   */
  private map(col: number, depth: number, first?: string): Record<string, unknown> {
    this.enter(depth);
    const map: Record<string, unknown> = {};
    let text = first;
    for (;;) {
      if (text === undefined) {
        const line = this.nextLine();
        if (line === undefined || indentOf(line) < col) return map;
        if (indentOf(line) !== col) decline();
        this.at++;
        text = line.slice(col);
      }
      const entry = KEY_LINE.exec(text);
      if (!entry) decline();
      const key = entry[1] as string;
      // A repeated key is an error with unique keys; yaml names it.
      if (SPECIAL_KEY.test(key) || Object.hasOwn(map, key)) decline();
      map[key] =
        entry[2] === undefined ? this.underKey(col, depth) : this.inline(entry[2], col + 2, depth);
      text = undefined;
    }
  }

  /** The value of a key that ends its line: a map or list indented by two below it, or null. */
  private underKey(col: number, depth: number): unknown {
    const line = this.nextLine();
    const indent = line === undefined ? -1 : indentOf(line);
    if (line === undefined || indent < col) return null;
    // A list at the key's own column belongs to the key in YAML; our writer indents lists.
    if (indent === col) return /^-(?: |$)/.test(line.slice(col)) ? decline() : null;
    if (indent !== col + 2) decline();
    return line.startsWith("-", indent)
      ? this.list(indent, depth + 1)
      : this.map(indent, depth + 1);
  }

  /**
   * A block list whose `- ` marks are at column `col`. In a list item (`- - item`) its first
   * item is the rest of that item's line, `first`.
   */
  private list(col: number, depth: number, first?: string): unknown[] {
    this.enter(depth);
    const items: unknown[] = [];
    let text = first;
    for (;;) {
      if (text === undefined) {
        const line = this.nextLine();
        if (line === undefined || indentOf(line) < col) return items;
        if (indentOf(line) !== col) decline();
        this.at++;
        text = line.slice(col);
      }
      // `-` alone (a null item, or an item on the lines below) is left to yaml.
      if (!text.startsWith("- ")) decline();
      const rest = text.slice(2);
      items.push(
        rest.startsWith("- ")
          ? this.list(col + 2, depth + 1, rest)
          : KEY_LINE.test(rest)
            ? this.map(col + 2, depth + 1, rest)
            : this.inline(rest, col + 2, depth),
      );
      text = undefined;
    }
  }

  /**
   * A value that starts on the line already read, after `key: ` or `- `. Its own further
   * lines are indented by at least `indent` (our writer's indent for them; yaml takes one
   * less, and a line there is declined as it fits nothing else).
   */
  private inline(text: string, indent: number, depth: number): unknown {
    // Nothing, or more than one space after the indicator: left to yaml.
    if (text === "" || text[0] === " ") decline();
    if (text === "[]" || text === "{}") {
      this.enter(depth + 1);
      return text === "[]" ? [] : {};
    }
    switch (text[0]) {
      case '"':
        return decodeDoubleQuoted(this.quoted(text, indent, '"'));
      case "'":
        return unfoldLines(this.quoted(text, indent, "'").slice(1, -1)).replace(/''/g, "'");
      case "|":
      case ">": {
        const block = readBlockScalar(this.lines, this.at, text, indent);
        this.at = block.next;
        return block.value;
      }
      default:
        return resolvePlain(unfoldLines(this.plain(text, indent)));
    }
  }

  /**
   * The source of a quoted scalar from its opening quote to its closing one, over as many
   * lines as it takes; nothing may follow the closing quote on its line.
   */
  private quoted(text: string, indent: number, quote: '"' | "'"): string {
    let source = text;
    let i = 1;
    for (;;) {
      if (i >= source.length) {
        // The scalar goes on: its next line must be empty or indented enough.
        const line = this.lines[this.at];
        if (line === undefined || (!blank(line) && indentOf(line) < indent)) decline();
        this.at++;
        source += `\n${line}`;
        continue;
      }
      const ch = source[i];
      if (ch === quote) {
        if (quote === "'" && source[i + 1] === "'") i += 2;
        else if (i === source.length - 1) return source;
        else decline();
      } else if (ch === "\\" && quote === '"') {
        // An escape skips the character after it; at a line's end, that is the line break.
        i += i + 1 < source.length ? 2 : 1;
      } else i++;
    }
  }

  /** The source of a plain scalar: its first line, then lines that continue it. */
  private plain(text: string, indent: number): string {
    // Indicators at its start mean something else in YAML (or an error).
    if (/^(?:[,[\]{}#&*!|>'"%@`]|[-?:](?: |$))/.test(text) || !plainLine(text)) decline();
    let source = text;
    for (;;) {
      let next = this.at;
      while (blank(this.lines[next])) next++;
      const line = this.lines[next];
      if (line === undefined || indentOf(line) < indent) return source;
      const content = line.slice(indentOf(line));
      // A comment line ends the scalar in YAML, a `- ` line reads as an item to a person.
      if (/^(?:#|[-?:](?: |$))/.test(content) || !plainLine(content)) decline();
      source += "\n".repeat(next - this.at + 1) + line;
      this.at = next + 1;
    }
  }
}

/** A line of a plain scalar that YAML reads as text: no `: `, no ` #`, no trailing space. */
function plainLine(text: string): boolean {
  return !/: |:$| #| $/.test(text);
}
