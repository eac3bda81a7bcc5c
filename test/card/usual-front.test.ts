// Story: a card is read without the yaml package when its front matter has the usual shape,
// and the data is exactly what yaml would have given; any other text is left to yaml. Checked
// against yaml itself on thousands of generated cards written by the project's own writer, on
// the same cards with random damage, on front matter written by hand around the usual shape,
// and on every card the project's commands write.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { CARD_LIMITS, serializeCard } from "../../src/card/codec.ts";
import { readUsualFront } from "../../src/card/usual-front.ts";
import { DEMO_QUESTIONS } from "../../src/cli/demo-command.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { dismissQuestion, expireQuestion } from "../../src/questions/close.ts";
import { extendQuestion } from "../../src/questions/extend.ts";
import { markJobDone } from "../../src/questions/job-done.ts";
import { withdrawQuestion } from "../../src/questions/withdraw.ts";
import { cleanupBoxes, confirmCard, makeBox, selectCard, textCard } from "../support/box.ts";
import { cardData, type Random, seeded, yamlPath } from "./card-shapes.ts";
import { handFront } from "./hand-shapes.ts";

afterAll(cleanupBoxes);

/** The front matter of a card text: what codec.ts hands to either reader. */
function frontOf(cardText: string): string {
  return cardText.slice("---\n".length, cardText.lastIndexOf("---\n"));
}

/**
 * The reader's answer for a front matter, checked against the yaml path: undefined, or data
 * deeply and strictly equal (-0, key order) to yaml's, and never data where yaml refuses.
 */
function agreesWithYaml(front: string): "read" | "declined" {
  const read = readUsualFront(front, CARD_LIMITS.depth);
  if (read === undefined) return "declined";
  const expected = yamlPath(front);
  const same =
    expected !== "error" &&
    isDeepStrictEqual(read, expected.data) &&
    JSON.stringify(read) === JSON.stringify(expected.data);
  if (!same) {
    expect.fail(
      `the reader gave ${JSON.stringify(read)} where yaml gives ${expected === "error" ? "an error" : JSON.stringify(expected.data)} for:\n${front}`,
    );
  }
  return "read";
}

const CARDS = 2500;

describe("the usual-front reader against yaml", () => {
  it("reads most generated cards, each exactly as yaml does, and declines the rest", () => {
    const random = seeded(14);
    let read = 0;
    for (let n = 0; n < CARDS; n++) {
      if (agreesWithYaml(frontOf(serializeCard(cardData(random)))) === "read") read++;
    }
    expect(read / CARDS).toBeGreaterThan(0.8);
  });

  it("never reads a damaged card differently from yaml", () => {
    const random = seeded(1414);
    let read = 0;
    const damaged = 5000;
    for (let n = 0; n < damaged; n++) {
      let front = frontOf(serializeCard(cardData(random)));
      for (let k = 1 + random.int(3); k > 0; k--) front = damage(random, front);
      if (agreesWithYaml(front) === "read") read++;
    }
    // Damage that yaml reads the same way (a space in a word, a blank line) is still read.
    expect(read).toBeGreaterThan(damaged / 6);
  });

  it("never reads front matter written by hand around the usual shape differently from yaml", () => {
    const random = seeded(2026);
    let read = 0;
    const written = 20_000;
    for (let n = 0; n < written; n++) if (agreesWithYaml(handFront(random)) === "read") read++;
    // Most are not the usual shape, or not YAML; enough are read to try the reader's edges.
    expect(read).toBeGreaterThan(written / 20);
  });

  it("reads every card the project's commands write, exactly as yaml does", async () => {
    const tb = await makeBox();
    const asked = [];
    for (const card of [
      ...DEMO_QUESTIONS,
      selectCard({ priority: "high", "expires-after": "P3D", tasks: ["one", "two: three"] }),
      confirmCard({ irreversible: true, context: [{ ref: "notes/a.md", text: "It said: 'no'." }] }),
      textCard({ "while-waiting": "Nothing # waits", "asked-by": "agent-7" }),
      textCard({ prompt: "Name the person at +41 79 000 00 00?", memo: "x".repeat(300) }),
    ]) {
      asked.push((await askQuestion(tb, card, { via: "cli" })).id);
    }
    const [select, confirm, text, select2, confirm2, text2, text3] = asked as string[];
    await answerQuestion(tb, select as string, { text: "finance" }, { via: "cli" });
    await answerQuestion(tb, text as string, { text: 'Ann "the: boss" #1' }, { via: "api" });
    await answerQuestion(tb, confirm2 as string, { text: "yes" }, { via: "web" });
    await dismissQuestion(tb, confirm as string, { via: "telegram" });
    await withdrawQuestion(tb, select2 as string, { via: "cli" }, { reason: "No longer needed." });
    await extendQuestion(tb, text2 as string, "2d", { via: "cli" });
    await expireQuestion(tb, text3 as string);
    await markJobDone(tb, select as string);

    const files = ["_bookkeeping/questions", "_bookkeeping/jobs"].flatMap((dir) =>
      readdirSync(join(tb.dir, dir))
        .filter((name) => name.endsWith(".card"))
        .map((name) => join(tb.dir, dir, name)),
    );
    expect(files.length).toBeGreaterThanOrEqual(asked.length + 3);
    for (const file of files) {
      expect(agreesWithYaml(frontOf(readFileSync(file, "utf8"))), file).toBe("read");
    }
  });
});

/** One random change to a text: a character added or removed, a line moved or re-indented. */
function damage(random: Random, front: string): string {
  const at = random.int(front.length + 1);
  const lines = front.split("\n");
  const line = random.int(lines.length);
  switch (random.int(6)) {
    case 0:
      return front.slice(0, at) + random.pick(DAMAGE) + front.slice(at);
    case 1:
      return front.slice(0, at) + front.slice(at + 1);
    case 2:
      lines.splice(line, 0, lines[line] ?? "");
      return lines.join("\n");
    case 3:
      lines[line] = random.pick([" ", "  ", "   "]) + lines[line];
      return lines.join("\n");
    case 4:
      lines[line] = (lines[line] ?? "").replace(/^ {1,2}/, "");
      return lines.join("\n");
    default:
      lines.splice(line, 2, lines[line + 1] ?? "", lines[line] ?? "");
      return lines.join("\n");
  }
}
const DAMAGE = [
  " ",
  "\n",
  "#",
  ":",
  "- ",
  "-",
  "'",
  '"',
  "\\",
  "\t",
  "|",
  ">",
  "[",
  "{",
  "&",
  "*",
].concat(["!", "?", "%", "\n\n", "\n  ", "  ", "x", ": x", "|-", ">+", "\r"]);
