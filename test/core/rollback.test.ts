// Story: the commit fails (here a pre-commit hook the box runs refuses it). The answer is
// reported as failed in one clear sentence, and the box is exactly as before: the card
// byte-identical, no job file, nothing staged. Once the cause is gone, the same answer works.

import { chmodSync, rmSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { BoxError } from "../../src/errors.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { dismissQuestion } from "../../src/questions/close.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import {
  boxFileExists,
  boxHookPath,
  cleanupBoxes,
  cliEnv,
  gitLog,
  gitStatus,
  jobRel,
  makeBox,
  questionRel,
  readBoxFile,
  runCli,
  selectCard,
} from "../support/box.ts";

afterEach(cleanupBoxes);

function refuseCommits(dir: string): () => void {
  const hook = boxHookPath(dir, "pre-commit");
  writeFileSync(hook, "#!/bin/sh\necho 'pre-commit: refusing for the test' >&2\nexit 1\n");
  chmodSync(hook, 0o755);
  return () => rmSync(hook);
}

describe("a commit refused by a pre-commit hook", () => {
  it("fails the answer with a clear error and leaves the card byte-identical, no job, a clean index", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard());
    const card = readBoxFile(tb.dir, questionRel(id));
    const commits = await gitLog(tb.dir);
    const allowCommits = refuseCommits(tb.dir);

    const failed = await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) });
    expect(failed.code).toBe(4);
    expect(failed.stderr).toMatch(/^qbridge: the change could not be committed \(.+\)/);
    expect(failed.stderr).toContain("nothing was changed, try again once that is fixed");
    expect(failed.stderr.trim().split("\n")).toHaveLength(1);

    expect(readBoxFile(tb.dir, questionRel(id))).toBe(card);
    expect(boxFileExists(tb.dir, jobRel(id))).toBe(false);
    expect(await gitStatus(tb.dir)).toBe("");
    expect(await gitLog(tb.dir)).toEqual(commits);

    allowCommits();
    const retried = await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) });
    expect(retried.code).toBe(0);
    expect(loadQuestion(tb, id).card.answer).toEqual({ text: "Taxes", selected: "taxes" });
    expect(boxFileExists(tb.dir, jobRel(id))).toBe(true);
    expect(await gitStatus(tb.dir)).toBe("");
  });

  it("rolls back a dismissal the same way, as a typed BoxError", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard());
    const card = readBoxFile(tb.dir, questionRel(id));
    const allowCommits = refuseCommits(tb.dir);
    await expect(dismissQuestion(tb, id, { via: "cli" })).rejects.toBeInstanceOf(BoxError);
    expect(readBoxFile(tb.dir, questionRel(id))).toBe(card);
    expect(await gitStatus(tb.dir)).toBe("");
    allowCommits();
    await dismissQuestion(tb, id, { via: "cli" });
    expect(loadQuestion(tb, id).card.status).toBe("dismissed");
  });

  it("files no card when asking fails to commit", async () => {
    const tb = await makeBox();
    refuseCommits(tb.dir);
    await expect(askQuestion(tb, selectCard({ id: "refused-ask" }))).rejects.toBeInstanceOf(
      BoxError,
    );
    expect(boxFileExists(tb.dir, questionRel("refused-ask"))).toBe(false);
    expect(await gitStatus(tb.dir)).toBe("");
  });
});
