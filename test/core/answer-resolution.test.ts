// Story: the boxholder answers in whatever form comes naturally (a letter, a label in any case,
// an option id, "y", free text) and the card records what that resolves to. What does not
// resolve is refused with what would, and nothing is written.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ANSWER_CHARS } from "../../src/card/resolve.ts";
import { InvalidAnswer } from "../../src/errors.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import {
  boxFileExists,
  cleanupBoxes,
  confirmCard,
  gitLog,
  jobRel,
  makeBox,
  questionRel,
  readBoxFile,
  selectCard,
  type TestBox,
  textCard,
} from "../support/box.ts";

let tb: TestBox;

beforeAll(async () => {
  tb = await makeBox();
});
afterAll(cleanupBoxes);

/** Options whose ids differ from their labels, so a label match and an id match are distinct. */
const receipts = selectCard({
  input: {
    type: "select",
    options: [
      { id: "fin", label: "Finance" },
      { id: "tax", label: "Taxes" },
      { id: "_other", label: "Somewhere else" },
    ],
  },
});

async function ask(card: Record<string, unknown>): Promise<string> {
  return (await askQuestion(tb, card)).id;
}

async function answer(card: Record<string, unknown>, text: string, note?: string) {
  const id = await ask(card);
  await answerQuestion(tb, id, { text, note }, { via: "cli" });
  return loadQuestion(tb, id).card;
}

/** Answers, expects a refusal, and checks that nothing at all was written. */
async function refused(card: Record<string, unknown>, text: string, note?: string) {
  const id = await ask(card);
  const before = readBoxFile(tb.dir, questionRel(id));
  const commits = (await gitLog(tb.dir)).length;
  const error = await answerQuestion(tb, id, { text, note }, { via: "cli" }).catch((e) => e);
  expect(error).toBeInstanceOf(InvalidAnswer);
  expect(readBoxFile(tb.dir, questionRel(id))).toBe(before);
  expect(boxFileExists(tb.dir, jobRel(id))).toBe(false);
  expect(await gitLog(tb.dir)).toHaveLength(commits);
  return error as InvalidAnswer;
}

describe("a select question", () => {
  it.each([
    ["a letter by position", "b", "tax", "Taxes"],
    ["an upper-case letter", "A", "fin", "Finance"],
    ["a label", "Taxes", "tax", "Taxes"],
    ["a label in another case with spaces around it", "  fINANCE ", "fin", "Finance"],
    ["an option id", "tax", "tax", "Taxes"],
  ])("takes %s", async (_what, text, selected, label) => {
    const card = await answer(receipts, text);
    expect(card.status).toBe("answered");
    expect(card.answer).toEqual({ text: label, selected });
  });

  it("keeps a note given with a choice", async () => {
    const card = await answer(receipts, "a", "only the paper ones");
    expect(card.answer).toEqual({ text: "Finance", selected: "fin", note: "only the paper ones" });
  });

  it("records the boxholder's own words as the answer of the _other option", async () => {
    const card = await answer(receipts, "c", "In the shoebox under the desk");
    expect(card.answer).toEqual({ text: "In the shoebox under the desk", selected: "_other" });
  });

  it("refuses the _other option without words of its own, asking for them", async () => {
    const error = await refused(receipts, "Somewhere else");
    expect(error.expected).toBe('your own words with "Somewhere else" (add them as the note)');
  });

  it.each([
    ["a letter past the last option", "d"],
    ["a label that is not there", "Groceries"],
    ["an id in the wrong case", "TAX"],
  ])("refuses %s and lists the choices that would resolve", async (_what, text) => {
    const error = await refused(receipts, text);
    expect(error.given).toBe(text);
    expect(error.expected).toBe("one of a) Finance, b) Taxes, c) Somewhere else");
  });
});

describe("a confirm question", () => {
  it.each([
    ["yes", "yes"],
    ["YES", "yes"],
    ["y", "yes"],
    ["true", "yes"],
    ["1", "yes"],
    ["no", "no"],
    ["N", "no"],
    ["false", "no"],
    ["0", "no"],
  ])("takes %j as %s", async (text, selected) => {
    const card = await answer(confirmCard(), text);
    expect(card.answer).toEqual({ text: selected === "yes" ? "Yes" : "No", selected });
  });

  it("keeps a note with the yes or no", async () => {
    const card = await answer(confirmCard(), "n", "keep the ones from 2019");
    expect(card.answer).toEqual({ text: "No", selected: "no", note: "keep the ones from 2019" });
  });

  it.each([["maybe"], ["yess"], ["2"], [""]])(
    "refuses %j and says yes or no would resolve",
    async (text) => {
      const error = await refused(confirmCard(), text);
      expect(error.expected).toBe("yes or no (also y/n, true/false, 1/0)");
    },
  );
});

describe("a text question", () => {
  it("records the free text, trimmed", async () => {
    const card = await answer(textCard(), "  Anna Muster \n");
    expect(card.answer).toEqual({ text: "Anna Muster" });
  });

  it("takes text of exactly the maximum length", async () => {
    const card = await answer(textCard(), "x".repeat(MAX_ANSWER_CHARS));
    expect(card.answer?.text).toHaveLength(MAX_ANSWER_CHARS);
  });

  it("refuses text over the maximum length, naming the limit", async () => {
    const error = await refused(textCard(), "x".repeat(MAX_ANSWER_CHARS + 1));
    expect(error.expected).toBe(`an answer of at most ${MAX_ANSWER_CHARS} characters`);
  });

  it("refuses an oversize note", async () => {
    const error = await refused(textCard(), "Anna", "y".repeat(MAX_ANSWER_CHARS + 1));
    expect(error.expected).toBe(`a note of at most ${MAX_ANSWER_CHARS} characters`);
  });

  it("refuses an empty answer", async () => {
    const error = await refused(textCard(), "   ");
    expect(error.expected).toBe("some text");
  });
});
