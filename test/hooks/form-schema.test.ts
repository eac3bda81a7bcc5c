// Story: an MCP server's form carries more than MCP's elicitation form may hold: a backtracking
// `pattern`, `additionalProperties`, an `x-` extension. The Elicitation hook files MCP's form
// only and the card names what was left out (not checked here); and an answer to a card filed
// with a pattern before that rule is checked against MCP's form only, so no pattern ever runs
// inside the process that records the answer.

import { afterEach, describe, expect, it } from "vitest";
import { runElicitationHook } from "../../src/hooks/elicitation-hook.ts";
import { hookLifetime } from "../../src/hooks/lifetime.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, makeBox, textCard } from "../support/box.ts";
import { eventually } from "../support/child.ts";
import { fixture, standIn } from "./hook-support.ts";

afterEach(cleanupBoxes);

/** Catastrophic for a backtracking engine on a run of a's that does not match at the end. */
const BACKTRACKING = "^(a+)+$";
const STALLING_ANSWER = `${"a".repeat(40)}!`;

describe("a form with keywords MCP's form cannot hold", () => {
  it("is filed as MCP's form, the card naming what it leaves out; the pattern never runs", async () => {
    const box = await makeBox();
    await standIn(box.dir);
    const input = fixture("claude-elicitation-string", {
      requested_schema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        additionalProperties: false,
        properties: {
          username: { type: "string", title: "Username", pattern: BACKTRACKING, "x-hint": 1 },
        },
      },
    });
    const printed: Record<string, unknown>[] = [];
    const lifetime = hookLifetime(60);
    const hook = runElicitationHook(box, input, {
      timeoutSeconds: 60,
      lifetime,
      print: (value) => printed.push(value),
      tell: () => undefined,
    });
    try {
      const view = await eventually(() => pendingQuestions(box).pending[0], 10_000, "the form");
      const card = loadQuestion(box, view.id).card;
      expect(card["requested-schema"]).toEqual({
        type: "object",
        properties: { username: { type: "string", title: "Username" } },
      });
      expect(card.memo).toContain(
        "Not checked here (MCP's form has no such rule; the server checks it): $schema, additionalProperties, username.pattern, username.x-hint.",
      );
      await answerQuestion(box, view.id, { text: STALLING_ANSWER }, { via: "telegram" });
      await hook;
    } finally {
      lifetime.dispose();
    }
    expect(printed).toEqual([
      {
        hookSpecificOutput: {
          hookEventName: "Elicitation",
          action: "accept",
          content: { username: STALLING_ANSWER },
        },
      },
    ]);
  });

  it("filed with a pattern before this rule, an answer is recorded without running it", async () => {
    const box = await makeBox();
    const schema = {
      type: "object",
      properties: { code: { type: "string", pattern: BACKTRACKING, maxLength: 60 } },
    };
    const { id } = await askQuestion(box, textCard({ prompt: "Which code?" }), {
      via: "hook",
      agentPrompt: { kind: "elicitation", requestedSchema: schema },
    });
    const result = await answerQuestion(box, id, { text: STALLING_ANSWER }, { via: "web" });
    expect(result.answer.text).toBe(STALLING_ANSWER);
    // MCP's own rules still hold: a value over maxLength is refused.
    const { id: other } = await askQuestion(box, textCard({ prompt: "Which other code?" }), {
      via: "hook",
      agentPrompt: { kind: "elicitation", requestedSchema: schema },
    });
    await expect(
      answerQuestion(box, other, { text: "a".repeat(61) }, { via: "web" }),
    ).rejects.toThrow(/an answer the form accepts/);
  });
});
