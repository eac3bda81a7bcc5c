// The scalars of the usual card front matter (usual-front.ts): what a plain word means in
// YAML's core schema, how plain and single-quoted lines fold, the escapes of double quotes, and
// literal and folded blocks, each as yaml 2 reads them. Whatever it is not certain of, it
// declines.

/** Gives up on the text; the reader catches it and leaves the text to yaml. */
export function decline(): never {
  throw new Error("left to yaml");
}

const CORE_NULL = /^(?:~|[Nn]ull|NULL)?$/;
const CORE_TRUE = /^(?:[Tt]rue|TRUE)$/;
const CORE_FALSE = /^(?:[Ff]alse|FALSE)$/;
const CORE_INT = /^[-+]?[0-9]+$/;
/** The core schema's other numbers (octal, hex, floats, .inf, .nan): left to yaml. */
const CORE_OTHER_NUMBERS = [
  /^0o[0-7]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
];

/**
 * A plain scalar's value in the core schema: null, a boolean, an integer of up to 15 digits
 * (read as yaml reads it, with parseInt), or the text itself. Timestamps are text there.
 */
export function resolvePlain(text: string): string | number | boolean | null {
  if (CORE_NULL.test(text)) return null;
  if (CORE_TRUE.test(text)) return true;
  if (CORE_FALSE.test(text)) return false;
  if (CORE_INT.test(text)) return text.length <= 15 ? Number.parseInt(text, 10) : decline();
  if (CORE_OTHER_NUMBERS.some((number) => number.test(text))) decline();
  return text;
}

/**
 * Plain and single-quoted lines folded into one: a line break between two lines is a space,
 * n empty lines are n line breaks, and the spaces around each break go. The last line keeps
 * its trailing spaces (before a closing quote they are text).
 */
export function unfoldLines(source: string): string {
  const lines = source.split("\n");
  if (lines.length === 1) return source;
  let value = (lines[0] as string).replace(/ +$/, "");
  let sep = " ";
  for (let i = 1; i < lines.length - 1; i++) {
    const line = (lines[i] as string).replace(/^ +| +$/g, "");
    if (line === "") {
      if (sep === "\n") value += sep;
      else sep = "\n";
    } else {
      value += sep + line;
      sep = " ";
    }
  }
  return value + sep + (lines[lines.length - 1] as string).replace(/^ +/, "");
}

const ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
};
const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };

/**
 * The value of a double-quoted scalar, its source with both quotes: escapes, escaped line
 * breaks (the next line's leading spaces go), and folding as in plain lines, where spaces
 * before a line break go unless escaped.
 */
export function decodeDoubleQuoted(source: string): string {
  let value = "";
  const end = source.length - 1;
  for (let i = 1; i < end; i++) {
    const ch = source[i] as string;
    if (ch === "\n") {
      let breaks = "";
      for (; source[i + 1] === " " || source[i + 1] === "\n"; i++) {
        if (source[i + 1] === "\n") breaks += "\n";
      }
      value += breaks || " ";
    } else if (ch === "\\") {
      const next = source[++i] as string;
      const digits = HEX_DIGITS[next];
      if (next === "\n") {
        while (source[i + 1] === " ") i++;
      } else if (digits !== undefined && Object.hasOwn(HEX_DIGITS, next)) {
        const hex = source.slice(i + 1, i + 1 + digits);
        const code = Number.parseInt(hex, 16);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits || code > 0x10ffff) decline();
        value += String.fromCodePoint(code);
        i += digits;
      } else if (Object.hasOwn(ESCAPES, next)) {
        value += ESCAPES[next];
      } else decline();
    } else if (ch === " ") {
      let last = i;
      while (source[last + 1] === " ") last++;
      if (source[last + 1] !== "\n") value += source.slice(i, last + 1);
      i = last;
    } else value += ch;
  }
  return value;
}

/** The block scalar headers our writer uses: literal or folded, indicator 2, chomping. */
const BLOCK_HEADER = /^([|>])(2?)([-+]?)$/;

/**
 * A literal (|) or folded (>) block scalar, with clip, strip (-) or keep (+) chomping, and the
 * indentation indicator 2 our writer gives a text that starts with a space: its value, and the
 * next line after it. `at` is its first line after the header; `indent`, the writer's indent.
 */
export function readBlockScalar(
  lines: string[],
  at: number,
  header: string,
  indent: number,
): { value: string; next: number } {
  const form = BLOCK_HEADER.exec(header);
  // Its first line of text must be at exactly the writer's indent, or at least there after
  // the indicator, which also keeps the spaces of deeper blank lines before it (yaml refuses
  // them without one). Empty scalars are left to yaml.
  let leading = "";
  for (; blank(lines[at]); at++) {
    const space = lines[at] as string;
    if (space.length > indent && form?.[2] !== "2") decline();
    leading += `${space.slice(indent)}\n`;
  }
  const first = lines[at];
  const firstIndent = first === undefined ? -1 : indentOf(first);
  if (!form || firstIndent < indent || (firstIndent > indent && form[2] !== "2")) decline();
  /** Each line past the indent: "" for a blank line, leading spaces for a deeper one. */
  const text: string[] = [];
  /** Blank lines not yet known to be inside the scalar or after it. */
  const blanks: string[] = [];
  for (; at < lines.length; at++) {
    const line = lines[at] as string;
    if (blank(line)) blanks.push(line);
    else if (indentOf(line) < indent) break;
    else {
      for (const space of blanks.splice(0)) text.push(space.slice(indent));
      text.push(line.slice(indent));
    }
  }
  // Trailing blank lines deeper than the indent would be text too: left to yaml.
  if (blanks.some((space) => space.length > indent)) decline();
  const value = leading + (form[1] === "|" ? text.join("\n") : foldLines(text));
  const chomped =
    form[3] === "-"
      ? value
      : form[3] === "+"
        ? `${value}\n${"\n".repeat(blanks.length)}`
        : `${value}\n`;
  return { value: chomped, next: at };
}

/**
 * A folded scalar's lines as YAML joins them: with a space, n empty lines giving n line
 * breaks, and lines indented deeper (a list, a quote) kept on lines of their own.
 */
function foldLines(lines: string[]): string {
  let value = "";
  let sep = "";
  let deeper = false;
  for (const line of lines) {
    if (line.startsWith(" ")) {
      if (sep === " ") sep = "\n";
      else if (!deeper && sep === "\n") sep = "\n\n";
      value += sep + line;
      sep = "\n";
      deeper = true;
    } else if (line === "") {
      if (sep === "\n") value += sep;
      else sep = "\n";
    } else {
      value += sep + line;
      sep = " ";
      deeper = false;
    }
  }
  return value;
}

/** An empty line or one of spaces only; undefined past the last line is not blank. */
export function blank(line: string | undefined): boolean {
  return line !== undefined && /^ *$/.test(line);
}

/** The spaces a line starts with. */
export function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  return n;
}
