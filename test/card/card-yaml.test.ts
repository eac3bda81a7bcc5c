// Story: a card's front matter is YAML, read by the yaml library with the card limits: a card
// written by hand in any YAML (folded text, block scalars, an alias, a comment, a flow map, a
// tab) reads as the library reads it, and a broken or hostile card is refused with a reason
// that names what is wrong.

import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { CARD_LIMITS, CardSyntaxError, parseCardText } from "../../src/card/codec.ts";

const card = (front: string) => `---\n${front}---\nBody.\n`;

/** Maps nested `levels` deep in block style, two spaces a level. */
const nested = (levels: number) =>
  `${Array.from({ length: levels }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n")} end\n`;

/** The yaml library's own reading of a front matter, or "error" where it refuses it. */
function libraryReading(front: string): { data: unknown } | "error" {
  const doc = parseDocument(front, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) return "error";
  const data = doc.toJS({ maxAliasCount: CARD_LIMITS.aliases });
  return data === null || typeof data !== "object" || Array.isArray(data) ? "error" : { data };
}

describe("front matter written by hand reads as the yaml library reads it", () => {
  it.each([
    ["plain text folded over lines", "a: one two\n  three\n    four\n"],
    ["plain text with empty lines between", "a: one\n\n  two\n\n\n  three\n"],
    ["plain text with a blank line of spaces", "a: one\n     \n  two\n"],
    ["plain text in a list, folded", "a:\n  - one\n    two\n  - three\n"],
    ["single quotes over lines", "a: 'one ''two''\n  three\n\n  four  '\n"],
    ["single quotes, spaces at line ends", "a: 'one   \n     two'\n"],
    [
      "double quotes with escapes",
      'a: "tab\\t nl\\n q\\" bs\\\\ \\x41\\u00e9\\U0001F600 \\L\\P\\N\\_\\0\\a\\b\\e\\f\\v\\r\\/\\ "\n',
    ],
    ["double quotes folded, an escaped line break", 'a: "one\\\n    two \\\n  three\n\n  four"\n'],
    ["double quotes, spaces before a line break", 'a: "one   \n  two\\  \n  three"\n'],
    ["a literal block, clip", "a: |\n  one\n\n    two\n  three\nb: 1\n"],
    ["a literal block, strip", "a: |-\n  one\n  two\n\nb: 1\n"],
    ["a literal block, keep, blank lines after", "a: |+\n  one\n\n \nb: 1\n"],
    ["a literal block, keep, at the end", "a: |+\n  one\n\n"],
    ["a literal block with a blank line of spaces", "a: |\n  one\n     \n  two\n"],
    ["a literal block after indicator 2", "a: |2-\n    one\n  two\n"],
    ["indicator 2 with blank lines before the text", "a: |2\n     \n\n   one\n"],
    ["a folded block", "a: >\n  one\n  two\n\n  three\n\n\n  four\n"],
    [
      "a folded block with deeper lines",
      "a: >-\n  one\n    - two\n    - three\n  four\n\n    five\n",
    ],
    ["a folded block after blank lines", "a: >\n\n  one\n  two\n"],
    ["a folded block, indicator 2, deeper first", "a: >2\n\n     one\n  two\n"],
    ["blocks in lists and list maps", "a:\n  - |\n    one\n  - b: >-\n      two\n      three\n"],
    ["lists in lists", "a:\n  - - one\n    - - two\n  - three\n"],
    ["empty collections", "a: []\nb: {}\nc:\n  - []\n  - {}\n"],
    [
      "nulls, booleans and integers",
      "a:\nb: ~\nc: Null\nd: TRUE\ne: false\nf: -0\ng: +12\nh: 007\n",
    ],
    [
      "words other schemas retype",
      "a: yes\nb: no\nc: on\nd: 2026-12-01\ne: 12:30\nf: 0b1\ng: 1_000\n",
    ],
    [
      "indicators inside plain text",
      "a: -x ?y :z a#b a:b [c] {d} e, 'f' \"g\" &h *i !j |k >l %m @n\n",
    ],
    ["unicode", "a: \u00e9\u4e2d\u{1F600} \u2028 \u0085 \ufeff \u00a0x\n"],
    ["keys of card fields", "while-waiting: x\nx_notes.1: y\nasked-at: 2026-12-01T04:20:26Z\n"],
  ])("%s", (_what, front) => {
    const expected = libraryReading(front);
    expect(expected).not.toBe("error");
    const { data } = parseCardText(card(front));
    expect(data).toStrictEqual((expected as { data: unknown }).data);
    expect(JSON.stringify(data)).toBe(JSON.stringify((expected as { data: unknown }).data));
  });

  it.each([
    ["an alias and its anchor", "a: &x one\nb: *x\n"],
    ["an anchor alone", "a: &x one\n"],
    ["a tag", "a: !!str 1\n"],
    ["a local tag", "a: !note text\n"],
    ["a comment line", "# filed by hand\na: 1\n"],
    ["a comment after a value", "a: one # why\n"],
    ["a comment after a quoted value", 'a: "one" # why\n'],
    ["a comment after a block header", "a: | # why\n  one\n"],
    ["a flow map", "a: {b: 1}\n"],
    ["a flow list", "a: [1, 2]\n"],
    ["a tab after the colon", "a:\tone\n"],
    ["a tab in a value", "a: one\ttwo\n"],
    ["a directive", "%YAML 1.2\na: 1\n"],
    ["a document end marker", "a: 1\n...\n"],
    ["CRLF line ends", "a: 1\r\nb: 2\r\n"],
    ["three-space indentation", "a:\n   b: 1\n"],
    ["one-space indentation", "a:\n b: 1\n"],
    ["a list at its key's column", "a:\n- x\n- y\n"],
    ["a value on the line below its key", "a:\n  text\n"],
    ["two spaces after the colon", "a:  one\n"],
    ["a null item", "a:\n  -\n  - x\n"],
    ["a key that reads as null", "null: x\n"],
    ["a key that reads as a boolean", "true: x\n"],
    ["__proto__ as a key", "__proto__: x\n"],
    ["a quoted key", '"a": 1\n'],
    ["a float", "a: 1.5\n"],
    ["a hex integer", "a: 0x1F\n"],
    ["an integer past 15 digits", "a: 1234567890123456\n"],
    [".inf", "a: .inf\n"],
    ["an empty block scalar", "a: |\nb: 1\n"],
    ["a block scalar with indicator 1", "a: |1\n  x\n"],
    ["a block scalar indented deeper than the writer's", "a: |\n    x\n"],
    ["a plain continuation one space deeper than its key", "a: one\n two\n"],
    ["a plain continuation that starts a comment", "a: one\n  # two\n"],
    ["a plain continuation that reads as a map", "a: one\n  b: two\n"],
    ["a blank line deeper than a block's text, before it", "a: |\n     \n  one\n"],
    ["a blank line deeper than a block's text, after it", "a: |\n  one\n     \nb: 1\n"],
    ["a block scalar with chomping before the indicator", "a: |-2\n   one\n"],
    ["a plain continuation that starts like an item", "a: one\n  - two\n"],
  ])("%s", (_what, front) => {
    const expected = libraryReading(front);
    if (expected === "error") expect(() => parseCardText(card(front))).toThrow(CardSyntaxError);
    else expect(parseCardText(card(front)).data).toEqual(expected.data);
  });

  it("reads maps nested exactly to the limit", () => {
    const front = nested(CARD_LIMITS.depth);
    const expected = libraryReading(front);
    expect(expected).not.toBe("error");
    expect(parseCardText(card(front)).data).toEqual((expected as { data: unknown }).data);
  });
});

describe("broken and hostile cards are refused with a reason", () => {
  it.each([
    ["a repeated key", "a: 1\na: 2\n", /its YAML does not parse \(Map keys must be unique/],
    ["a repeated nested key", "m:\n  k: 1\n  k: 2\n", /Map keys must be unique/],
    ["an unknown escape", 'a: "\\q"\n', /its YAML does not parse \(Invalid escape sequence/],
    ["an unclosed quote", 'a: "one\nb: 2\n', /its YAML does not parse/],
    ["a list, not a map", "- a\n- b\n", /its front matter is not a map of fields/],
    ["no fields", "\n", /its front matter is not a map of fields/],
    ["block maps nested 33 levels", nested(33), /deeper than the card limit of 32 levels/],
    ["block maps nested 200 levels", nested(200), /deeper than the card limit of 32 levels/],
    [
      "an alias bomb",
      `a0: &a0 [x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 8 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(", ")}]`).join("\n")}\n`,
      /expand more than the card limit of 20 times/,
    ],
  ])("%s", (_what, front, reason) => {
    expect(() => parseCardText(card(front))).toThrow(reason);
  });
});
