// Story: an answer to an MCP form is refused, or recorded, and a person reads what was given
// and what is wrong in the form's own words: its titles and labels, never the stored JSON or
// the validator's "data/replicas must be >= 1". The real validator (the MCP SDK's) decides.

import { describe, expect, it } from "vitest";
import { formAnswerLine, formAnswerWords } from "../../src/card/form-words.ts";
import type { Question } from "../../src/card/question.ts";
import { InvalidAnswer } from "../../src/errors.ts";
import { checkFields } from "../../src/questions/fields-check.ts";

const FORM = {
  type: "object",
  properties: {
    environment: {
      type: "string",
      title: "Environment",
      enum: ["staging", "production"],
      enumNames: ["Staging", "Production"],
    },
    replicas: { type: "integer", title: "Replicas", minimum: 1, maximum: 10 },
    notify: { type: "boolean", title: "Tell the on-call channel" },
    contact: { type: "string", format: "email" },
    reason: { type: "string", title: "Reason", minLength: 3 },
  },
  required: ["environment", "reason"],
};

const card = { "requested-schema": FORM, input: { type: "text" } } as unknown as Question;

function refusal(values: Record<string, unknown>): string {
  try {
    checkFields(card, { text: JSON.stringify(values) });
  } catch (error) {
    if (error instanceof InvalidAnswer) return error.message;
    throw error;
  }
  throw new Error("the answer was accepted");
}

describe("an MCP form's answer in words", () => {
  it("names each refused field by its title and says what it must be", () => {
    const said = refusal({
      environment: "qa",
      replicas: "0",
      contact: "ada at example",
      reason: "no",
    });
    expect(said).toContain("Environment must be one of: Staging, Production");
    expect(said).toContain("Replicas must be 1 or more");
    expect(said).toContain("contact must be an e-mail address");
    expect(said).toContain("Reason must be at least 3 characters");
    expect(said).toContain("expected an answer the form accepts");
    expect(said).not.toMatch(/[{}]|data\/|>=/);
  });

  it("says a missing field is required, a wrong kind of value what kind it takes, and what was given", () => {
    const said = refusal({ environment: "staging", replicas: "2.5" });
    expect(said).toContain("Reason is a required property: fill it in");
    expect(said).toContain("Replicas must be a whole number");
    expect(said).toContain('"Environment: Staging; Replicas: 2.5" does not answer');
  });

  it("reads a recorded answer field by field, with the form's labels and Yes or No", () => {
    const answer = {
      text: '{"environment":"production","replicas":"3","notify":"false","reason":"Release"}',
    };
    expect(formAnswerWords(card, answer)).toEqual([
      { title: "Environment", value: "Production" },
      { title: "Replicas", value: "3" },
      { title: "Tell the on-call channel", value: "No" },
      { title: "Reason", value: "Release" },
    ]);
    expect(formAnswerLine(card, { text: "{}" })).toBe("an empty form");
    expect(formAnswerLine(card, { text: "plain words" })).toBeUndefined();
  });

  it("refuses words that are no form's values, even where every field may be left out", () => {
    const optional = { ...card, "requested-schema": { ...FORM, required: [] } } as Question;
    for (const text of ["no", "cancel that", "[]", '"staging"']) {
      expect(() => checkFields(optional, { text })).toThrow(InvalidAnswer);
    }
    expect(() => checkFields(optional, { text: "{}" })).not.toThrow();
  });
});
