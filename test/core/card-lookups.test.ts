// Finding one card by id, and the box's stats, read the card index, not every card: a service
// over 10,000 cards parsed every stored card on each ask (twice), which kept its heap and its
// native memory growing. What they find stays the same.

import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { watchCards } from "../../src/questions/card-watch.ts";
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

describe("an id taken in a watched box", () => {
  it("is refused in any subfolder, one made since the last look and one deeper too; a free id is filed", async () => {
    const b = await makeBox();
    const questions = join(b.dir, "_bookkeeping/questions");
    const card = (prompt: string) =>
      pendingCardText({ prompt, memo: "m", input: { type: "text" }, directive: "d" });
    mkdirSync(join(questions, "archive"));
    writeFileSync(join(questions, "archive", "old.question.card"), card("Old?"));
    // Folders changed an hour ago: the look trusts what it found (none is racily fresh).
    const settle = (...folders: string[]) => {
      const past = new Date(Date.now() - 3_600_000);
      for (const folder of folders) utimesSync(join(questions, folder), past, past);
    };
    settle(".", "archive");
    const watch = watchCards(b.box);
    expect(scanQuestions(b.box, b.ledger)).toHaveLength(1);

    await expect(askQuestion(b, selectCard({ id: "old" }))).rejects.toThrow(
      /id "old" exists already/,
    );
    // Folders made after the last look, and nobody told: the top folder's time says so.
    mkdirSync(join(questions, "2026", "12"), { recursive: true });
    writeFileSync(join(questions, "2026", "12", "new.question.card"), card("New?"));
    settle(".", "2026", "2026/12");
    await expect(askQuestion(b, selectCard({ id: "new" }))).rejects.toThrow(
      /id "new" exists already/,
    );
    const asked = await askQuestion(b, selectCard({ id: "free" }));
    expect(loadQuestion(b, asked.id).rel).toBe("_bookkeeping/questions/free.question.card");
    watch.stop();
  });
});
