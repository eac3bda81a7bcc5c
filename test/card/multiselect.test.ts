// The multiselect input's contract and its reading of answers, with no surface: the card rules
// it follows (a select's), typed items separated by commas each read as a select's one pick,
// duplicates collapsed, one unknown or ambiguous item refusing the whole answer by name, a note
// after the picks, own words for `_other`, and the ids a form or a Send names.

import { describe, expect, it } from "vitest";
import { AskSchema, describeIssues, type Question } from "../../src/card/question.ts";
import { resolveAnswer } from "../../src/card/resolve.ts";
import { InvalidAnswer } from "../../src/errors.ts";
import { multiselectCard } from "../support/box.ts";

const card = multiselectCard() as Pick<Question, "input">;

function refusal(input: Pick<Question, "input">, text: string): string {
  try {
    resolveAnswer(input, { text });
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidAnswer);
    return (error as Error).message;
  }
  throw new Error(`"${text}" was not refused`);
}

describe("a multiselect card", () => {
  it("follows a select's rules: at least 2 options, unique ids, labels unique ignoring case", () => {
    const ask = (options: unknown) =>
      AskSchema.safeParse(multiselectCard({ input: { type: "multiselect", options } }));
    const one = ask([{ id: "unit", label: "Unit tests" }]);
    expect(one.success || describeIssues(one.error)).toBe(
      "input.options: a multiselect question needs at least 2 options",
    );
    const twice = ask([
      { id: "unit", label: "Unit tests" },
      { id: "lint", label: "UNIT TESTS" },
    ]);
    expect(twice.success || describeIssues(twice.error)).toContain(
      'option label "UNIT TESTS" is used twice',
    );
    expect(AskSchema.safeParse(multiselectCard({ recommended: "lint" })).success).toBe(true);
    const recommended = AskSchema.safeParse(multiselectCard({ recommended: "docs" }));
    expect(recommended.success || describeIssues(recommended.error)).toContain(
      'recommended "docs" is not an option id',
    );
  });
});

describe("a multiselect answer", () => {
  it("takes letters or labels separated by commas, in any case, recorded in the options' order", () => {
    const expected = { text: "Unit tests, Type check", selected: "unit,types" };
    expect(resolveAnswer(card, { text: "a, c" })).toEqual(expected);
    expect(resolveAnswer(card, { text: "type check,UNIT TESTS" })).toEqual(expected);
    expect(resolveAnswer(card, { text: "types, a" })).toEqual(expected);
  });

  it("collapses an option named twice, and one pick alone is an answer", () => {
    expect(resolveAnswer(card, { text: "a, Unit tests, unit" })).toEqual({
      text: "Unit tests",
      selected: "unit",
    });
  });

  it("refuses the whole answer when one item names no option, naming that item", () => {
    expect(refusal(card, "a, zz, c")).toContain('"zz" names none of them');
    expect(refusal(card, "")).toContain("one or more options");
  });

  it("refuses an item that could be a letter of one option and the label of another", () => {
    const input = {
      input: {
        type: "multiselect",
        options: [
          { id: "x", label: "B" },
          { id: "y", label: "Why" },
        ],
      },
    };
    expect(refusal(input, "a, b")).toContain('"b" could mean a) B or b) Why');
  });

  it("keeps a note after the picks, and reads a label that holds a comma whole", () => {
    expect(resolveAnswer(card, { text: "a, b - only on main" })).toEqual({
      text: "Unit tests, Lint",
      selected: "unit,lint",
      note: "only on main",
    });
    const commas = {
      input: {
        type: "multiselect",
        options: [
          { id: "later", label: "Yes, but later" },
          { id: "now", label: "Now" },
        ],
      },
    };
    expect(resolveAnswer(commas, { text: "yes, but later, b" })).toEqual({
      text: "Yes, but later, Now",
      selected: "later,now",
    });
  });

  it("takes own words for _other after the picks, in its place in the text", () => {
    const input = {
      input: {
        type: "multiselect",
        options: [
          { id: "unit", label: "Unit tests" },
          { id: "_other", label: "Something else" },
        ],
      },
    };
    expect(resolveAnswer(input, { text: "a, b - the fuzz suite" })).toEqual({
      text: "Unit tests, the fuzz suite",
      selected: "unit,_other",
    });
    expect(refusal(input, "a, b")).toContain('your own words with "Something else"');
  });

  it("takes the ids a form or a Send names, and refuses an id the card does not have", () => {
    expect(resolveAnswer(card, { text: "types,lint", option: "types,lint" })).toEqual({
      text: "Lint, Type check",
      selected: "lint,types",
    });
    expect(() => resolveAnswer(card, { text: "lint,docs", option: "lint,docs" })).toThrow(
      /"docs" is none of/,
    );
  });
});
