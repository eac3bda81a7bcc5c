// Story: the boxholder's git is set up for their own work: a pre-commit hook that refuses or
// never ends, commit signing with a gpg that cannot sign. The box's own commits run none of
// it, so every answer still lands; and when a commit in the box fails anyway (a name git
// refuses), `qbridge doctor` tries one and names the failure with its fix, leaving no trace.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openBox } from "../../src/box/box.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { examineBox } from "../../src/questions/doctor/doctor.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import {
  boxHookPath,
  cleanupBoxes,
  gitLog,
  gitStatus,
  makeBox,
  questionRel,
  selectCard,
} from "../support/box.ts";

afterEach(cleanupBoxes);

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-C", dir, ...args], { encoding: "utf8" });
}

/** A pre-commit hook of the boxholder's in the repository's own hooks folder. */
function userHook(dir: string, body: string): string {
  const ran = join(dir, ".git", "user-hook-ran");
  writeFileSync(join(dir, ".git/hooks/pre-commit"), `#!/bin/sh\ntouch '${ran}'\n${body}\n`, {
    mode: 0o755,
  });
  return ran;
}

/** Asks and answers one question; both must be committed. */
async function askAndAnswer(tb: Awaited<ReturnType<typeof makeBox>>): Promise<void> {
  const before = (await gitLog(tb.dir)).length;
  const { id } = await askQuestion(tb, selectCard());
  await answerQuestion(tb, id, { text: "a" }, { via: "cli" });
  expect(loadQuestion(tb, id).card.status).toBe("answered");
  expect((await gitLog(tb.dir)).length).toBe(before + 2);
  expect(await gitStatus(tb.dir)).toBe("");
}

describe("the box's own commits run none of the boxholder's git extras", () => {
  it("commits although the repository's pre-commit hook refuses every commit", async () => {
    const tb = await makeBox();
    const ran = userHook(tb.dir, "echo 'policy: no commits' >&2\nexit 1");
    await askAndAnswer(tb);
    expect(existsSync(ran)).toBe(false);
  });

  it("commits although the pre-commit hook never ends", async () => {
    const tb = await makeBox();
    // Bounded: were the hook run, the answer would wait 30 s and the test's timeout end it.
    const ran = userHook(tb.dir, "sleep 30");
    await askAndAnswer(tb);
    expect(existsSync(ran)).toBe(false);
  });

  it("commits although a hooks folder set in git's config refuses every commit", async () => {
    const tb = await makeBox();
    const hooks = join(tb.dir, ".git", "team-hooks");
    mkdirSync(hooks);
    writeFileSync(join(hooks, "pre-commit"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    git(tb.dir, "config", "core.hooksPath", hooks);
    await askAndAnswer(tb);
  });

  it("commits unsigned although git is set to sign every commit with a gpg that fails", async () => {
    const tb = await makeBox();
    git(tb.dir, "config", "commit.gpgsign", "true");
    git(tb.dir, "config", "gpg.program", "/bin/false");
    await askAndAnswer(tb);
    expect(git(tb.dir, "log", "-1", "--format=%G?").trim()).toBe("N");
  });
});

describe("a git that hangs", () => {
  it("is stopped after the time limit: the answer fails in one sentence and changes nothing", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard());
    const card = readFileSync(join(tb.dir, questionRel(id)), "utf8");
    const commits = (await gitLog(tb.dir)).length;
    // The box's own hook, let go of git's output, waits well past the limit.
    const ran = join(tb.dir, ".git", "hook-ran");
    writeFileSync(
      boxHookPath(tb.dir, "pre-commit"),
      `#!/bin/sh\nexec >/dev/null 2>&1\ntouch '${ran}'\nsleep 20\n`,
      { mode: 0o755 },
    );
    const box = openBox(tb.dir, { clock: tb.box.clock, gitTimeLimitMs: 1_000 });
    const core = { box, ledger: tb.ledger };
    await expect(answerQuestion(core, id, { text: "a" }, { via: "cli" })).rejects.toThrow(
      /^the change could not be committed \(git printed nothing for 1 s and was stopped \(commit: a hook in \.qbridge\/git-hooks\/ that waits/,
    );
    expect(existsSync(ran)).toBe(true);
    expect(readFileSync(join(tb.dir, questionRel(id)), "utf8")).toBe(card);
    expect((await gitLog(tb.dir)).length).toBe(commits);
    expect(await gitStatus(tb.dir)).toBe("");
  });
});

describe("qbridge doctor tries a commit", () => {
  it("names a commit git refuses (a name it does not accept) with its fix", async () => {
    const tb = await makeBox();
    await askQuestion(tb, selectCard());
    git(tb.dir, "config", "user.name", ".");
    git(tb.dir, "config", "user.email", "me@example.org");
    // As `qbridge doctor` runs: a process of its own. (This one may have committed the card as
    // qbridge, where git has no name configured, and keeps doing so for this box.)
    const findings = await examineBox({ ...tb, box: openBox(tb.dir, { clock: tb.box.clock }) });
    expect(findings).toEqual([
      expect.objectContaining({
        kind: "git",
        path: ".git",
        problem: expect.stringMatching(
          /^a trial commit in the box fails, so every answer fails: git refused it: fatal: name consists only of disallowed characters: \.$/,
        ),
        fix: expect.stringContaining("config user.name 'Your Name'"),
        repairable: false,
      }),
    ]);
  });

  it("finds a healthy box healthy and leaves no object, ref or index change behind", async () => {
    const tb = await makeBox();
    await askQuestion(tb, selectCard());
    const objects = () => git(tb.dir, "count-objects", "-v");
    const head = () => git(tb.dir, "rev-parse", "HEAD");
    const [objectsBefore, headBefore] = [objects(), head()];
    expect(await examineBox(tb)).toEqual([]);
    expect(objects()).toBe(objectsBefore);
    expect(head()).toBe(headBefore);
    expect(await gitStatus(tb.dir)).toBe("");
  });
});
