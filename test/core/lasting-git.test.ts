// A box opened for a long-running process (serve) runs git with simple-git's own completion
// (its `onExit: false`, kept for short commands, leaks a little with every git command): the
// commands and their whole output are the same either way.

import { afterEach, describe, expect, it } from "vitest";
import { openBox } from "../../src/box/box.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { cleanupBoxes, makeBox, selectCard } from "../support/box.ts";

afterEach(cleanupBoxes);

describe("a lasting box's git", () => {
  it("commits and reads back the same history as a short command's box", async () => {
    const b = await makeBox();
    const lasting = { ...b, box: openBox(b.dir, { clock: b.box.clock, lasting: true }) };
    for (let i = 0; i < 3; i++) await askQuestion(lasting, selectCard({ prompt: `Where ${i}?` }));
    const log = ["log", "--format=%s"];
    const seen = await lasting.box.git.raw(log);
    expect(seen).toBe(await b.box.git.raw(log));
    expect(seen.split("\n").filter((line) => line.startsWith("ask: "))).toHaveLength(3);
  });
});
