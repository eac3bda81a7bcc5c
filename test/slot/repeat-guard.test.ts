// Story: something makes the slot present one question again at every tick: a chat that takes
// the message and shows nothing (no address comes back), a card rewritten before every look.
// Whatever the cause, the slot tries it three times in a row, then holds it off for a pause
// that doubles with each further try, and shows the other questions meanwhile. The slot is
// driven tick by tick (no watcher), on a wall clock the test moves.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import type { Presenter, PresentRequest } from "../../src/slot/presentation/presenter.ts";
import { createSlot } from "../../src/slot/slot.ts";
import { cleanupBoxes, confirmCard, makeBox, questionRel, selectCard } from "../support/box.ts";

afterEach(cleanupBoxes);

/** A presenter that records each try and shows nothing for the questions in `blank`. */
function notebook(blank: Set<string> = new Set()): Presenter & { tries: string[] } {
  const tries: string[] = [];
  let next = 1;
  return {
    surface: "notebook",
    tries,
    ready: () => true,
    async present(request: PresentRequest) {
      tries.push(request.question.id);
      return blank.has(request.question.id)
        ? undefined
        : { chatId: "desk", messageId: String(next++) };
    },
    async closed() {},
  };
}

describe("a question the slot would present again and again", () => {
  it("that shows nothing is tried three times, then after pauses that double; others go first", async () => {
    const box = await makeBox();
    const { id: stuck } = await askQuestion(box, confirmCard({ priority: "high" }));
    const { id: other } = await askQuestion(box, selectCard({ prompt: "The other one?" }));
    let wall = 1_000_000;
    const slot = createSlot({ core: box, wallClock: () => wall });
    const presenter = notebook(new Set([stuck]));
    slot.attach(presenter);
    const ticks = async (n: number) => {
      for (let i = 0; i < n; i++) await slot.reconcile();
    };
    const triesOf = (id: string) => presenter.tries.filter((t) => t === id).length;

    await ticks(10);
    expect(triesOf(stuck)).toBe(3);
    // Held off, it is not in the way: the next question is shown, once.
    expect(triesOf(other)).toBe(1);
    await slot.answer(other, { text: "finance" }, { via: "notebook" });

    await ticks(5);
    expect(triesOf(stuck)).toBe(3);
    wall += 30_000;
    await ticks(5);
    expect(triesOf(stuck)).toBe(4);
    // The pause doubled: 30 s later it is still held off, a minute later it is tried again.
    wall += 30_000;
    await ticks(5);
    expect(triesOf(stuck)).toBe(4);
    wall += 30_000;
    await ticks(5);
    expect(triesOf(stuck)).toBe(5);
  });

  it("whose card is rewritten before every look is shown three times in a row, not at every tick", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, selectCard({ prompt: "Edited again?" }));
    const slot = createSlot({ core: box, wallClock: () => 1_000_000 });
    const presenter = notebook();
    slot.attach(presenter);
    const path = join(box.dir, questionRel(id));
    for (let tick = 0; tick < 10; tick++) {
      await slot.reconcile();
      const text = readFileSync(path, "utf8");
      writeFileSync(path, text.replace(/Edited again\?( \d+)?/, `Edited again? ${tick}`));
    }
    expect(presenter.tries).toEqual([id, id, id]);
  });

  it("never holds off a question a person asks to see: their Show always shows it", async () => {
    const box = await makeBox();
    const { id: a } = await askQuestion(box, selectCard({ prompt: "First one?" }));
    const { id: b } = await askQuestion(box, selectCard({ prompt: "Second one?" }));
    const slot = createSlot({ core: box, wallClock: () => 1_000_000 });
    const presenter = notebook();
    slot.attach(presenter);
    await slot.reconcile();
    // The boxholder goes back and forth between the two, more often than the guard allows.
    for (let i = 0; i < 4; i++) {
      for (const id of [b, a]) {
        const shown = await slot.show(id);
        expect(shown?.questionId).toBe(id);
      }
    }
    expect(presenter.tries.filter((t) => t === a)).toHaveLength(5);
  });
});
