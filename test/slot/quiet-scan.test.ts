// Story: `qbridge serve` watches a box of 10,000 cards all year. Its slot looks for changes
// every second; while no card folder changed, that look re-reads no card (it used to stat all
// of them every second, and the garbage kept ~100 MB of heap busy). What changes is still
// seen: a card written by renaming it into place changes its folder, an edit in place is told
// by the watcher, and a walk of the subfolders every minute catches what neither shows there.
// The top folder, where the cards usually all are, is walked whole every ten minutes only;
// between those, what changed there is read from the names the watcher told.

import { mkdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { writeAtomic } from "../../src/box/atomic.ts";
import {
  BURST_MS,
  FULL_WALK_MS,
  MOST_TOLD,
  TOP_WALK_MS,
  watchCards,
} from "../../src/questions/card-watch.ts";
import { scanQuestions } from "../../src/questions/scan.ts";
import {
  cleanupBoxes,
  makeBox,
  pendingCardText,
  type TestBox,
  textCard,
  writeCardFile,
} from "../support/box.ts";

afterEach(() => {
  vi.useRealTimers();
  cleanupBoxes();
});

const prompts = (box: TestBox) =>
  scanQuestions(box.box, box.ledger)
    .map((entry) => entry.card?.prompt)
    .sort();

/** Folders last changed an hour ago: a walk over them is trusted (not racily fresh). */
function settle(...folders: string[]): void {
  const past = new Date(Date.now() - 3_600_000);
  for (const folder of folders) utimesSync(folder, past, past);
}

describe("scanning a watched box", () => {
  it("reads no card while its folders are unchanged; a rename, the watcher's word or a minute makes it read again", async () => {
    const box = await makeBox();
    const questions = box.box.paths.questionsDir;
    writeCardFile(box.dir, "one", pendingCardText(textCard({ prompt: "One?" })));
    const sub = join(questions, "2026");
    mkdirSync(sub);
    writeFileSync(join(sub, "two.question.card"), pendingCardText(textCard({ prompt: "Two?" })));
    settle(questions, sub);
    const watch = watchCards(box.box);

    expect(prompts(box)).toEqual(["One?", "Two?"]);
    // Edited in place: no folder changes, and nobody told the scan, so it reads nothing.
    writeCardFile(box.dir, "one", pendingCardText(textCard({ prompt: "One, edited?" })));
    writeFileSync(
      join(sub, "two.question.card"),
      pendingCardText(textCard({ prompt: "Two, edited?" })),
    );
    expect(prompts(box)).toEqual(["One?", "Two?"]);

    // The watcher of the questions folder saw the first edit.
    watch.changed();
    expect(prompts(box)).toEqual(["One, edited?", "Two, edited?"]);

    // A card renamed into place (as qbridge, git and most editors write) changes its folder.
    settle(questions, sub);
    expect(prompts(box)).toHaveLength(2);
    writeAtomic(join(sub, "three.question.card"), pendingCardText(textCard({ prompt: "Three?" })));
    expect(prompts(box)).toEqual(["One, edited?", "Three?", "Two, edited?"]);

    // An edit in place in a subfolder shows neither way: the walk every minute finds it.
    settle(questions, sub);
    expect(prompts(box)).toHaveLength(3);
    writeFileSync(
      join(sub, "three.question.card"),
      pendingCardText(textCard({ prompt: "Three, edited?" })),
    );
    expect(prompts(box)).toContain("Three?");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + FULL_WALK_MS + 1 });
    expect(prompts(box)).toContain("Three, edited?");
    vi.useRealTimers();

    // Once the watcher stops, every scan walks again.
    settle(questions, sub);
    expect(prompts(box)).toHaveLength(3);
    watch.stop();
    writeCardFile(box.dir, "one", pendingCardText(textCard({ prompt: "One, again?" })));
    expect(prompts(box)).toContain("One, again?");
  });

  it("the minute's walk reads the subfolders only; an edit in the top folder no watcher told waits for the whole walk every ten minutes", async () => {
    const box = await makeBox();
    const questions = box.box.paths.questionsDir;
    const sub = join(questions, "2026");
    const deeper = join(sub, "12");
    mkdirSync(deeper, { recursive: true });
    const card = (prompt: string) => pendingCardText(textCard({ prompt }));
    writeCardFile(box.dir, "one", card("One?"));
    writeFileSync(join(sub, "two.question.card"), card("Two?"));
    writeFileSync(join(deeper, "three.question.card"), card("Three?"));
    settle(questions, sub, deeper);
    const watch = watchCards(box.box);
    expect(prompts(box)).toEqual(["One?", "Three?", "Two?"]);

    // Each edited in place, and nobody told the scan.
    writeCardFile(box.dir, "one", card("One, edited?"));
    writeFileSync(join(sub, "two.question.card"), card("Two, edited?"));
    writeFileSync(join(deeper, "three.question.card"), card("Three, edited?"));
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start + FULL_WALK_MS + 1 });
    // The subfolders are read again, at every depth; the top folder's card is left to the
    // watcher, and stays in the index as it was.
    expect(prompts(box)).toEqual(["One?", "Three, edited?", "Two, edited?"]);
    vi.setSystemTime(start + 2 * FULL_WALK_MS + 2);
    expect(prompts(box)).toEqual(["One?", "Three, edited?", "Two, edited?"]);
    // Ten minutes after the last whole walk, the top folder is walked too.
    vi.setSystemTime(start + TOP_WALK_MS + 1);
    expect(prompts(box)).toEqual(["One, edited?", "Three, edited?", "Two, edited?"]);
    watch.stop();
  });

  it("reads only the cards the watcher named; a change it has not named yet, a folder or a name it cannot stat makes a whole walk", async () => {
    const box = await makeBox();
    const questions = box.box.paths.questionsDir;
    const card = (prompt: string) => pendingCardText(textCard({ prompt }));
    writeCardFile(box.dir, "one", card("One?"));
    writeCardFile(box.dir, "two", card("Two?"));
    settle(questions);
    const watch = watchCards(box.box);
    expect(prompts(box)).toEqual(["One?", "Two?"]);

    // Both edited in place; the watcher names one: that one alone is read again.
    writeCardFile(box.dir, "one", card("One, edited?"));
    writeCardFile(box.dir, "two", card("Two, edited?"));
    watch.changed("one.question.card");
    expect(prompts(box)).toEqual(["One, edited?", "Two?"]);

    // A card renamed into place changes the folder's time; named, it is read without a walk
    // (two's edit, never named, stays unread), and so is a card removed.
    writeAtomic(join(questions, "three.question.card"), card("Three?"));
    watch.changed("three.question.card.tmp");
    watch.changed("three.question.card");
    rmSync(join(questions, "one.question.card"));
    watch.changed("one.question.card");
    expect(prompts(box)).toEqual(["Three?", "Two?"]);

    // A change after the last name (the folder's time moved past it): a whole walk.
    writeAtomic(join(questions, "four.question.card"), card("Four?"));
    watch.changed("four.question.card");
    writeAtomic(join(questions, "five.question.card"), card("Five?"));
    const later = new Date(statSync(questions).mtimeMs + 5_000);
    utimesSync(questions, later, later);
    expect(prompts(box)).toEqual(["Five?", "Four?", "Three?", "Two, edited?"]);

    // A folder named: new, it takes a walk, which finds the cards in it.
    writeCardFile(box.dir, "two", card("Two, again?"));
    mkdirSync(join(questions, "2026"));
    writeFileSync(join(questions, "2026", "six.question.card"), card("Six?"));
    watch.changed("2026");
    expect(prompts(box)).toEqual(["Five?", "Four?", "Six?", "Three?", "Two, again?"]);
    // Removed, the walk forgets its cards.
    rmSync(join(questions, "2026"), { recursive: true });
    watch.changed("2026");
    expect(prompts(box)).toEqual(["Five?", "Four?", "Three?", "Two, again?"]);

    // A name that cannot be stat'ed (too long for the file system): a walk, not a failed scan.
    writeCardFile(box.dir, "two", card("Two, walked?"));
    watch.changed(`${"x".repeat(300)}.question.card`);
    expect(prompts(box)).toEqual(["Five?", "Four?", "Three?", "Two, walked?"]);

    // More names than it keeps between two looks (a checkout of many cards): a whole walk,
    // and every look walks whole for two seconds more, for what a burst's dropped events named.
    writeCardFile(box.dir, "two", card("Two, at last?"));
    for (let i = 0; i <= MOST_TOLD; i++) watch.changed(`burst-${i}.question.card`);
    expect(prompts(box)).toEqual(["Five?", "Four?", "Three?", "Two, at last?"]);
    writeCardFile(box.dir, "two", card("Two, after the burst?"));
    expect(prompts(box)).toEqual(["Five?", "Four?", "Three?", "Two, after the burst?"]);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + BURST_MS });
    writeCardFile(box.dir, "two", card("Two, unnamed?"));
    expect(prompts(box)).toEqual(["Five?", "Four?", "Three?", "Two, after the burst?"]);
    watch.stop();
  });

  it("a box nobody watches is walked on every scan", async () => {
    const box = await makeBox();
    writeCardFile(box.dir, "one", pendingCardText(textCard({ prompt: "One?" })));
    settle(box.box.paths.questionsDir);
    expect(prompts(box)).toEqual(["One?"]);
    writeCardFile(box.dir, "one", pendingCardText(textCard({ prompt: "One, edited?" })));
    expect(prompts(box)).toEqual(["One, edited?"]);
  });
});
