// Story: a question's lock is lost while its answer is being written (its lock folder removed,
// or left unrefreshed past its stale time, as on a stalled machine): another process may hold
// it now. The answer stops with a LockLost that says so, before anything is committed: the card
// is byte for byte as before, no job, nothing staged. The test removes or ages the folder at a
// named step of the write, listening on the write's diagnostics channel (src/box/write-steps.ts).

import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WRITE_STEP_CHANNEL, type WriteStep } from "../../src/box/write-steps.ts";
import { LockLost } from "../../src/errors.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import {
  boxFileExists,
  cleanupBoxes,
  gitLog,
  gitStatus,
  jobRel,
  makeBox,
  questionRel,
  readBoxFile,
  selectCard,
} from "../support/box.ts";

afterEach(cleanupBoxes);

/** Runs `fault` once, when a write of `root` reaches `point`. */
function atStep(root: string, point: string, fault: () => void): () => void {
  let done = false;
  const listener = (message: unknown) => {
    const step = message as WriteStep;
    if (done || step.box !== root || step.point !== point) return;
    done = true;
    fault();
  };
  subscribe(WRITE_STEP_CHANNEL, listener);
  return () => unsubscribe(WRITE_STEP_CHANNEL, listener);
}

describe("a lock lost during a transition", () => {
  for (const [how, lose] of [
    ["removed", (folder: string) => rmSync(folder, { recursive: true, force: true })],
    [
      "left unrefreshed past its stale time",
      (folder: string) => utimesSync(folder, new Date(0), new Date(0)),
    ],
  ] as const) {
    it(`whose folder was ${how} stops the answer with LockLost before its commit; nothing changes`, async () => {
      const tb = await makeBox();
      const { id } = await askQuestion(tb, selectCard());
      const card = readBoxFile(tb.dir, questionRel(id));
      const commits = await gitLog(tb.dir);
      const folder = join(tb.box.paths.locksDir, `q-${id}.lock`);
      const stop = atStep(tb.box.paths.root, "before-commit", () => lose(folder));
      try {
        const answering = answerQuestion(tb, id, { text: "b" }, { via: "cli" });
        await expect(answering).rejects.toBeInstanceOf(LockLost);
        await expect(answering).rejects.toThrow(
          `the lock q-${id} was lost before the change was committed`,
        );
      } finally {
        stop();
      }
      expect(readBoxFile(tb.dir, questionRel(id))).toBe(card);
      expect(boxFileExists(tb.dir, jobRel(id))).toBe(false);
      expect(await gitStatus(tb.dir)).toBe("");
      expect(await gitLog(tb.dir)).toEqual(commits);
      // Nothing is left half done: the same answer goes through once the lock is its own again.
      await answerQuestion(tb, id, { text: "b" }, { via: "cli" });
      expect(loadQuestion(tb, id).card.answer).toEqual({ text: "Taxes", selected: "taxes" });
    });
  }
});
