// Finding one card by id, and the box's stats, read the card index, not every card: a service
// over 10,000 cards parsed every stored card on each ask (twice), which kept its heap and its
// native memory growing. What they find stays the same.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { scanQuestions } from "../../src/questions/scan.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, makeBox, pendingCardText, selectCard } from "../support/box.ts";

afterEach(() => {
  vi.restoreAllMocks();
  cleanupBoxes();
});

const CARDS = 200;

describe("finding a card by id over a box of 200 cards in a subfolder", () => {
  it("finds the card and refuses a taken id while parsing far fewer than 200 stored cards", async () => {
    const b = await makeBox();
    const nested = join(b.dir, "_bookkeeping/questions/archive");
    mkdirSync(nested);
    for (let i = 0; i < CARDS; i++) {
      writeFileSync(
        join(nested, `old-${i}.question.card`),
        pendingCardText({
          prompt: `Old question ${i}`,
          memo: "m",
          input: { type: "text" },
          directive: "d",
        }),
      );
    }
    // The index is built once, as a service's first scan does.
    expect(scanQuestions(b.box, b.ledger)).toHaveLength(CARDS);

    const parse = vi.spyOn(JSON, "parse");
    expect(loadQuestion(b, "old-150").card.prompt).toBe("Old question 150");
    expect(loadQuestion(b, "old-150").rel).toBe(
      "_bookkeeping/questions/archive/old-150.question.card",
    );
    await expect(askQuestion(b, selectCard({ id: "old-7" }))).rejects.toThrow(
      /id "old-7" exists already/,
    );
    const asked = await askQuestion(b, selectCard({ id: "fresh" }));
    expect(loadQuestion(b, asked.id).card.status).toBe("pending");
    expect(parse.mock.calls.length).toBeLessThan(CARDS / 4);
  });
});
