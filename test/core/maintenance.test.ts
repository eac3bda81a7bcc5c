// Git's housekeeping runs in the aging sweep, never on an answer's path: a commit would
// otherwise start `git maintenance run --auto` (and with it a repack) before the boxholder's
// tap is acknowledged.

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { simpleGit } from "simple-git";
import { afterEach, describe, expect, it } from "vitest";
import { ageQuestions } from "../../src/questions/aging.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { cleanupBoxes, confirmCard, makeBox, selectCard } from "../support/box.ts";

afterEach(cleanupBoxes);

const packs = (dir: string) =>
  readdirSync(join(dir, ".git/objects/pack")).filter((name) => name.endsWith(".pack")).length;

describe("git housekeeping", () => {
  it("an answer's commit leaves housekeeping that is due to the aging sweep", async () => {
    const b = await makeBox();
    const git = simpleGit(b.dir);
    // Two packs where one is allowed: any automatic maintenance would merge them.
    const { id } = await askQuestion(b, selectCard());
    await git.raw(["repack", "-d", "-q"]);
    await askQuestion(b, confirmCard());
    await git.raw(["repack", "-d", "-q"]);
    await git.raw(["config", "gc.autoPackLimit", "1"]);
    // In the foreground, so that whatever a command starts is done when it returns.
    await git.raw(["config", "gc.autoDetach", "false"]);
    expect(packs(b.dir)).toBe(2);

    await answerQuestion(b, id, { text: "a" }, { via: "cli" });
    expect(packs(b.dir)).toBe(2);

    await ageQuestions(b);
    expect(packs(b.dir)).toBe(1);
  });
});
