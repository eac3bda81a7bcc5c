// Story: the process answering a question is killed (SIGKILL) at any step of its write. The
// question is never left answered without its job: it is pending and answerable once the
// interrupted write is recovered, or answered with its job when the commit had landed.
// `qbridge doctor` reports what the dead writer left, `doctor --repair` clears it, and the
// dead writer's locks are taken over once their stale time has passed. The killed answer and
// the retry are qbridge commands; the doctor runs in this process.

import { spawn } from "node:child_process";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { simpleGit } from "simple-git";
import { afterAll, describe, expect, it } from "vitest";
import type { CrashPoint } from "../../src/box/commit.ts";
import { parseQuestion } from "../../src/card/load.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { waitUntilLocksStale } from "../reliability/invariants.ts";
import {
  boxFileExists,
  boxHookPath,
  CLI,
  cleanupBoxes,
  cliEnv,
  doctorFindings as doctor,
  gitStatus,
  jobRel,
  makeBox,
  questionRel,
  readBoxFile,
  runCli,
  selectCard,
  type TestBox,
} from "../support/box.ts";
import { eventually } from "../support/child.ts";

afterAll(cleanupBoxes);

async function crashWhileAnswering(point: CrashPoint) {
  const tb = await makeBox({ staleMs: 5000 });
  const { id } = await askQuestion(tb, selectCard());
  const crashed = await runCli(["answer", id, "b"], {
    env: cliEnv(tb.dir, { QBRIDGE_TEST_CRASH_AT: point }),
  });
  return { tb, id, crashed };
}

/** The card's status in a text, and whether its job sits beside it. */
function statusIn(text: string | null): string | undefined {
  if (text === null) return undefined;
  const parsed = parseQuestion(text);
  return parsed.ok ? parsed.card.status : `unreadable: ${parsed.reason}`;
}

async function headFile(dir: string, rel: string): Promise<string | null> {
  return simpleGit(dir)
    .raw(["cat-file", "blob", `HEAD:${rel}`])
    .catch(() => null);
}

/** Never answered without its job: on disk, and in what is committed. */
async function expectNeverAnsweredWithoutJob(tb: TestBox, id: string) {
  const disk = readBoxFile(tb.dir, questionRel(id));
  if (statusIn(disk) === "answered") expect(boxFileExists(tb.dir, jobRel(id))).toBe(true);
  if (statusIn(await headFile(tb.dir, questionRel(id))) === "answered") {
    expect(await headFile(tb.dir, jobRel(id))).not.toBeNull();
  }
}

/**
 * The audit's applied answers of a question: what was typed, what it meant, and whether the
 * line names (an abbreviation of) the commit that answered the card.
 */
async function appliedAnswers(tb: TestBox, id: string) {
  const sha = (
    await simpleGit(tb.dir).raw(["log", "-1", "--format=%H", "--", questionRel(id)])
  ).trim();
  return tb.ledger
    .auditFor(id)
    .filter((row) => row.action === "answer" && row.outcome === "applied")
    .map((row) => {
      const commit = row.detail?.replace(/^commit /, "") ?? "";
      return {
        verbatim: row.verbatim,
        resolvedTo: row.resolvedTo,
        namesItsCommit: commit.length >= 7 && sha.startsWith(commit),
      };
    });
}

const UNCOMMITTED: CrashPoint[] = [
  "before-write",
  "mid-write",
  "between-writes",
  "before-commit",
  "in-commit",
];

describe.concurrent("killed before its commit landed", () => {
  it.each(UNCOMMITTED)(
    "at %s: the card is pending and answerable after recovery, and never answered without its job",
    async (point) => {
      const { tb, id, crashed } = await crashWhileAnswering(point);
      expect(crashed.code).toBe(128); // killed by the signal, not exited
      await expectNeverAnsweredWithoutJob(tb, id);

      // Killed before its first write, the writer leaves only its lock (stale in 5 s).
      if (point !== "before-write") {
        const findings = await doctor(tb);
        expect(findings).toContainEqual(
          expect.objectContaining({
            kind: "interrupted-write",
            path: `.qbridge/journal/${id}.json`,
            repairable: true,
          }),
        );
        // The files it touched are part of that finding, not changes for a person to commit.
        expect(findings.filter((f) => !f.repairable)).toEqual([]);
      }

      expect((await doctor(tb, true)).every((f) => f.repaired)).toBe(true);
      expect(loadQuestion(tb, id).card.status).toBe("pending");
      expect(boxFileExists(tb.dir, jobRel(id))).toBe(false);
      expect(await gitStatus(tb.dir)).toBe("");

      const answered = await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) });
      expect(answered.code).toBe(0);
      expect(loadQuestion(tb, id).card.answer).toEqual({ text: "Taxes", selected: "taxes" });
      expect(boxFileExists(tb.dir, jobRel(id))).toBe(true);
      expect(await gitStatus(tb.dir)).toBe("");
      // The answer took over whatever lock the dead writer still held: nothing is left.
      expect(await doctor(tb)).toEqual([]);
    },
  );
});

describe.concurrent("killed after its commit landed", () => {
  it("keeps the answer with its job; doctor reports the leftover journal and repair keeps the commit", async () => {
    const { tb, id, crashed } = await crashWhileAnswering("after-commit");
    expect(crashed.code).toBe(128);
    await expectNeverAnsweredWithoutJob(tb, id);

    expect(await doctor(tb)).toContainEqual(expect.objectContaining({ kind: "interrupted-write" }));
    expect((await doctor(tb, true)).every((f) => f.repaired)).toBe(true);
    expect(await doctor(tb)).toEqual([]);

    expect(loadQuestion(tb, id).card.status).toBe("answered");
    expect(await headFile(tb.dir, jobRel(id))).not.toBeNull();
    const again = await runCli(["answer", id, "a"], { env: cliEnv(tb.dir) });
    expect(again.code).toBe(3);
    expect(again.stderr).toContain("already answered");
    // The writer died before its audit line; the repair wrote it, naming the commit.
    expect(await appliedAnswers(tb, id)).toEqual([
      { verbatim: "b", resolvedTo: "taxes: Taxes", namesItsCommit: true },
    ]);
  });

  it("killed after its audit line: the line is there once, not written again by the repair", async () => {
    const { tb, id, crashed } = await crashWhileAnswering("after-record");
    expect(crashed.code).toBe(128);
    expect((await doctor(tb, true)).every((f) => f.repaired)).toBe(true);
    expect(await appliedAnswers(tb, id)).toEqual([
      { verbatim: "b", resolvedTo: "taxes: Taxes", namesItsCommit: true },
    ]);
  });

  it("a dead writer's locks are taken over after their stale time, without doctor", async () => {
    // Killed inside the commit: it holds the question's lock and the box-wide commit lock.
    const { tb, id, crashed } = await crashWhileAnswering("in-commit");
    expect(crashed.code).toBe(128);
    const locks = join(tb.dir, ".qbridge/locks");
    expect(readdirSync(locks).sort()).toEqual([
      "commit.git-running",
      "commit.lock",
      `q-${id}.lock`,
    ]);
    const { id: other } = await askQuestion(tb, selectCard({ prompt: "Another receipt?" }));

    // Another question needs only the commit lock; this one needs both and the recovery.
    const [otherAnswer, sameAnswer] = await Promise.all([
      answerQuestion(tb, other, { text: "a" }, { via: "cli" }),
      runCli(["answer", id, "b"], { env: cliEnv(tb.dir) }),
    ]);
    expect(otherAnswer.answer.text).toBe("Finance");
    expect(sameAnswer.code).toBe(0);
    expect(loadQuestion(tb, id).card.answer?.text).toBe("Taxes");
    expect(existsSync(join(locks, "commit.lock"))).toBe(false);
    expect(existsSync(join(locks, `q-${id}.lock`))).toBe(false);
    expect(await gitStatus(tb.dir)).toBe("");
  });
});

/**
 * Hooks that hold `git commit` inside a window until the group is killed, as a whole service
 * stopped with SIGKILL (or the OOM killer) stops its git too: the pre-commit hook runs while
 * git holds .git/index.lock (the index write); the reference-transaction hook, in its
 * "prepared" state, runs while git holds HEAD.lock and the branch's ref lock (the ref update).
 */
const WINDOWS = {
  "the index write": { hook: "pre-commit", when: "true", left: [".git/index.lock"] },
  "the ref update": {
    hook: "reference-transaction",
    when: '[ "$1" = prepared ]',
    left: [".git/HEAD.lock", ".git/refs/heads/main.lock"],
  },
} as const;

/** The lock files git has in the box's .git (top level and refs/). */
function gitLocks(dir: string): string[] {
  const top = readdirSync(join(dir, ".git")).filter((n) => n.endsWith(".lock"));
  const refs = readdirSync(join(dir, ".git/refs/heads")).filter((n) => n.endsWith(".lock"));
  return [...top.map((n) => `.git/${n}`), ...refs.map((n) => `.git/refs/heads/${n}`)].sort();
}

describe.concurrent("killed together with the git it was running", () => {
  it.each(Object.keys(WINDOWS) as (keyof typeof WINDOWS)[])(
    "inside git commit at %s: git's lock files are left, and the next answer clears them and lands",
    async (window) => {
      const { hook, when, left } = WINDOWS[window];
      const tb = await makeBox({ staleMs: 5000 });
      const { id } = await askQuestion(tb, selectCard());
      const started = join(tb.dir, ".git", "hook-started");
      const hookPath = boxHookPath(tb.dir, hook);
      writeFileSync(
        hookPath,
        `#!/bin/sh\nif ${when}; then touch "${started}"; sleep 30; fi\nexit 0\n`,
        { mode: 0o755 },
      );
      const child = spawn(process.execPath, [CLI, "answer", id, "b"], {
        env: { ...process.env, ...cliEnv(tb.dir) },
        detached: true,
        stdio: "ignore",
      });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await eventually(() => existsSync(started) || undefined, 20_000, "git to run the hook");
      process.kill(-(child.pid as number), "SIGKILL");
      await exited;
      expect(gitLocks(tb.dir)).toEqual(expect.arrayContaining([...left]));
      rmSync(hookPath);
      if (window === "the ref update") {
        // Once the dead writer's commit lock is stale, doctor names the locks as a dead
        // qbridge git's (provably nobody else's) and says the next answer removes them.
        await waitUntilLocksStale(tb.dir, 5000);
        const found = await doctor(tb);
        const ofGit = found.filter((f) => f.path.startsWith(".git/"));
        expect(ofGit.map((f) => f.path)).toEqual(expect.arrayContaining([...left]));
        for (const finding of ofGit) {
          expect(finding).toMatchObject({
            kind: finding.path === ".git/index.lock" ? "index-lock" : "git-lock",
            problem: expect.stringContaining("left by a qbridge git that was killed"),
            repairable: true,
          });
        }
      }

      const answered = await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) });
      expect(answered.stderr).toBe("");
      expect(answered.code).toBe(0);
      expect(loadQuestion(tb, id).card.answer).toEqual({ text: "Taxes", selected: "taxes" });
      expect(boxFileExists(tb.dir, jobRel(id))).toBe(true);
      expect(gitLocks(tb.dir)).toEqual([]);
      expect(await gitStatus(tb.dir)).toBe("");
    },
  );
});
