// Story: the disk or git refuses a change: the card folder is read-only, the disk is full, a
// pre-commit hook fails, git's index is locked. Each time the command fails with one clear
// sentence, the card is byte for byte what it was, no job and no journal is left, nothing is
// committed, and the same command works once the fault is gone.
//
// Read-only and full disks are real: a bind mount remounted read-only and a small tmpfs (chmod
// alone does not stop root). The file runs in its own user and mount namespace (`npm run
// test:disk-faults`: unshare --user --map-root-user --mount), so it needs no root and its
// mounts are seen only by the test and the qbridge processes it starts.

import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  cpSync,
  mkdtempSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commitAs, initBox, openBox } from "../../src/box/box.ts";
import { createClock } from "../../src/box/clock.ts";
import { faultOf } from "../../src/box/commit-errors.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import {
  boxHookPath,
  cleanupBoxes,
  cliEnv,
  gitStatus,
  jobRel,
  makeBox,
  questionRel,
  readBoxFile,
  runCli,
  selectCard,
  T0,
  type TestBox,
} from "../support/box.ts";
import { diskCards, diskJobs, headFile, history, printFigures } from "./invariants.ts";

const figures = { injectedFaults: 0, cleanFailures: 0, retriesAfterFix: 0 };
const mounts: string[] = [];
afterAll(() => {
  for (const dir of mounts.splice(0).reverse()) unmount(dir);
  printFigures("disk and git faults", figures);
  cleanupBoxes();
});

function mount(...args: string[]): void {
  try {
    execFileSync("mount", args, { stdio: "pipe" });
  } catch (error) {
    throw new Error(
      `cannot mount (${String(error).split("\n")[0]}): run this file with "npm run test:disk-faults", which gives it a user and mount namespace of its own`,
    );
  }
  mounts.push(args[args.length - 1] as string);
}

function unmount(dir: string): void {
  execFileSync("umount", [dir], { stdio: "pipe" });
  const i = mounts.indexOf(dir);
  if (i >= 0) mounts.splice(i, 1);
}

/** Fills the file system holding `dir` to the last byte. */
function fill(dir: string): string {
  const filler = join(dir, "filler");
  const chunk = Buffer.alloc(64 * 1024);
  let size = 0;
  for (let i = 0; i < 4096; i++) {
    try {
      writeFileSync(filler, chunk, { flag: "a" });
      size += chunk.length;
    } catch {
      break;
    }
  }
  for (const small of [4096, 512, 1]) {
    for (let i = 0; i < 64; i++) {
      try {
        writeFileSync(filler, Buffer.alloc(small), { flag: "a" });
      } catch {
        break;
      }
    }
  }
  expect(size).toBeGreaterThan(0);
  return filler;
}

interface Snapshot {
  card: string;
  commits: number;
}

async function snapshot(tb: { dir: string }, id: string): Promise<Snapshot> {
  return {
    card: readBoxFile(tb.dir, questionRel(id)),
    commits: (await history(tb.dir)).subjects.length,
  };
}

/** The failed command left the box exactly as it was, and said why in one sentence. */
async function expectCleanFailure(
  tb: { dir: string },
  id: string,
  before: Snapshot,
  failed: { code: number; stderr: string },
  cause: RegExp,
  /** What doctor must name: the injected fault itself when it is still there. */
  remaining: { kind: string; path: string }[] = [],
) {
  figures.injectedFaults++;
  expect(failed.code).toBe(4); // the box refused, not the call
  const lines = failed.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(cause);
  expect(lines[0]).not.toContain("unexpected failure");
  expect(readBoxFile(tb.dir, questionRel(id))).toBe(before.card);
  expect(diskJobs(tb.dir)).toEqual([]);
  expect((await history(tb.dir)).subjects).toHaveLength(before.commits);
  // Nothing is left staged: a hand-made `git commit` afterwards would commit nothing of it.
  expect(await staged(tb.dir)).toEqual([]);
  const doctor = await runCli(["doctor", "--json"], { env: cliEnv(tb.dir) });
  const { findings } = JSON.parse(doctor.stdout) as { findings: { kind: string; path: string }[] };
  expect(findings.map(({ kind, path }) => ({ kind, path }))).toEqual(remaining);
  figures.cleanFailures++;
}

/** The paths git's index holds different from HEAD. */
async function staged(dir: string): Promise<string[]> {
  const out = execFileSync("git", ["-C", dir, "diff", "--cached", "--name-only"]).toString();
  return out.split("\n").filter((line) => line !== "");
}

/** Moves `folder` of a box onto its own tmpfs of `size`, keeping what it holds. */
function onTmpfs(folder: string, size: string): void {
  const aside = mkdtempSync(join(tmpdir(), "qbridge-aside-"));
  cpSync(folder, aside, { recursive: true });
  mount("-t", "tmpfs", "-o", `size=${size}`, "tmpfs", folder);
  cpSync(aside, folder, { recursive: true });
  rmSync(aside, { recursive: true, force: true });
}

async function expectAnsweredOnRetry(tb: { dir: string }, id: string) {
  const retried = await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) });
  expect(retried.code).toBe(0);
  expect(readBoxFile(tb.dir, questionRel(id))).toContain("status: answered");
  expect(diskJobs(tb.dir)).toEqual([id]);
  expect(readBoxFile(tb.dir, jobRel(id))).toContain(`question-id: ${id}`);
  expect(await gitStatus(tb.dir)).toBe("");
  figures.retriesAfterFix++;
}

async function boxWithQuestion(): Promise<{ tb: TestBox; id: string }> {
  const tb = await makeBox();
  const { id } = await askQuestion(tb, selectCard({ id: "fault-q" }));
  return { tb, id };
}

/** A box alone on a 1 MB tmpfs with one pending question; its ledger is open. */
async function boxOnSmallDisk() {
  const disk = mkdtempSync(join(tmpdir(), "qbridge-full-"));
  mount("-t", "tmpfs", "-o", "size=1m", "tmpfs", disk);
  const dir = join(disk, "box");
  await initBox(dir);
  const box = openBox(dir, { clock: createClock(T0) });
  const ledger = new Ledger(box.paths.ledgerPath);
  const { id } = await askQuestion({ box, ledger }, selectCard({ id: "fault-q" }));
  return { disk, dir, ledger, id };
}

describe("a read-only card folder (bind mount, remounted read-only)", () => {
  it("fails an answer naming the read-only file system; card unchanged, no job; works once writable", async () => {
    const { tb, id } = await boxWithQuestion();
    const before = await snapshot(tb, id);
    const folder = join(tb.dir, "_bookkeeping/questions");
    mount("--bind", folder, folder);
    execFileSync("mount", ["-o", "remount,bind,ro", folder], { stdio: "pipe" });

    const failed = await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) });
    await expectCleanFailure(tb, id, before, failed, /read-only \(_bookkeeping\/questions\)/);
    const dismissed = await runCli(["dismiss", id], { env: cliEnv(tb.dir) });
    await expectCleanFailure(tb, id, before, dismissed, /read-only/);

    unmount(folder);
    await expectAnsweredOnRetry(tb, id);
  });

  it("files no question while the folder is read-only, and files it afterwards", async () => {
    const tb = await makeBox();
    const folder = join(tb.dir, "_bookkeeping/questions");
    mount("--bind", folder, folder);
    execFileSync("mount", ["-o", "remount,bind,ro", folder], { stdio: "pipe" });
    const card = JSON.stringify(selectCard({ id: "fault-ask" }));
    const failed = await runCli(["ask", "--json"], { env: cliEnv(tb.dir), input: card });
    figures.injectedFaults++;
    expect(failed.code).toBe(4);
    expect(failed.stderr.trim()).toMatch(
      /^qbridge: .*the file system is read-only.*nothing was changed/,
    );
    expect(diskCards(tb.dir)).toEqual([]);
    expect(await gitStatus(tb.dir)).toBe("");
    figures.cleanFailures++;

    unmount(folder);
    const filed = await runCli(["ask", "--json"], { env: cliEnv(tb.dir), input: card });
    expect(filed.code).toBe(0);
    expect(diskCards(tb.dir).map((c) => c.id)).toEqual(["fault-ask"]);
    figures.retriesAfterFix++;
  });
});

describe("a full disk (a small tmpfs)", () => {
  it("fails an answer whose job cannot be written: the disk is full, card unchanged, no job", async () => {
    const { tb, id } = await boxWithQuestion();
    const before = await snapshot(tb, id);
    // The jobs folder on its own tiny file system: the answer's first write hits the full disk.
    const jobs = join(tb.dir, "_bookkeeping/jobs");
    mount("-t", "tmpfs", "-o", "size=64k", "tmpfs", jobs);
    writeFileSync(join(jobs, ".gitkeep"), "");
    // The filler is the fault, not a change of the box: git does not see it.
    writeFileSync(join(tb.dir, ".git/info/exclude"), "_bookkeeping/jobs/filler\n", { flag: "a" });
    const filler = fill(jobs);

    const failed = await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) });
    await expectCleanFailure(tb, id, before, failed, /the disk is full \(_bookkeeping\/jobs\)/);
    expect(await gitStatus(tb.dir)).toBe("");

    rmSync(filler);
    await expectAnsweredOnRetry(tb, id);
    const job = readBoxFile(tb.dir, jobRel(id));
    unmount(jobs);
    // What was answered on the small disk is committed: git still has the job.
    expect(await gitStatus(tb.dir)).toContain(`D ${jobRel(id)}`);
    execFileSync("git", ["-C", tb.dir, "checkout", "--", jobRel(id)]);
    expect(readBoxFile(tb.dir, jobRel(id))).toBe(job);
  });

  it("fails when the whole box sits on a full disk, naming it, and answers once space is freed", async () => {
    const { disk, dir, ledger, id } = await boxOnSmallDisk();
    ledger.close();
    const before = await snapshot({ dir }, id);
    const filler = fill(disk);

    const failed = await runCli(["answer", id, "b"], { env: cliEnv(dir) });
    figures.injectedFaults++;
    expect(failed.code).toBe(4);
    expect(failed.stderr.trim().split("\n")).toHaveLength(1);
    expect(failed.stderr).toMatch(/the disk may be full/);
    expect(readBoxFile(dir, questionRel(id))).toBe(before.card);
    expect(diskJobs(dir)).toEqual([]);
    expect((await history(dir)).subjects).toHaveLength(before.commits);
    figures.cleanFailures++;

    rmSync(filler);
    await expectAnsweredOnRetry({ dir }, id);
    unmount(disk);
    rmSync(disk, { recursive: true, force: true });
  });
});

describe("a full disk under a ledger held open (a running service)", () => {
  it("a refused answer says nothing was changed, and never that a commit holds it", async () => {
    const { disk, dir, ledger, id } = await boxOnSmallDisk();
    const before = await snapshot({ dir }, id);
    // The ledger stays open with an empty write-ahead log: a command opens it, and its first
    // write (the refusal's audit line) finds no room.
    const filler = fill(disk);
    try {
      for (const [args, code] of [
        [["answer", id, "b"], 4],
        [["answer", id, "zzz"], 1],
        [["dismiss", id], 4],
      ] as const) {
        const failed = await runCli([...args], { env: cliEnv(dir) });
        figures.injectedFaults++;
        const what = `${args.join(" ")}: ${failed.stderr}`;
        expect(failed.code, what).toBe(code);
        expect(failed.stderr, what).not.toMatch(/commit holds/);
        for (const line of failed.stderr.trim().split("\n")) {
          if (line.includes("ledger")) expect(line, what).toMatch(/nothing was committed/);
        }
        if (code === 4) expect(failed.stderr, what).toMatch(/nothing was changed/);
        expect(readBoxFile(dir, questionRel(id))).toBe(before.card);
        expect((await history(dir)).subjects).toHaveLength(before.commits);
        figures.cleanFailures++;
      }
    } finally {
      ledger.close();
      rmSync(filler);
      unmount(disk);
      rmSync(disk, { recursive: true, force: true });
    }
  });
});

describe("a full disk at each step of an answer: nothing is left staged", () => {
  it("the card write: the disk is full (_bookkeeping/questions), the job is removed, nothing staged", async () => {
    const { tb, id } = await boxWithQuestion();
    const before = await snapshot(tb, id);
    const questions = join(tb.dir, "_bookkeeping/questions");
    onTmpfs(questions, "256k");
    writeFileSync(join(tb.dir, ".git/info/exclude"), "_bookkeeping/questions/filler\n", {
      flag: "a",
    });
    const filler = fill(questions);

    const failed = await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) });
    await expectCleanFailure(
      tb,
      id,
      before,
      failed,
      /the disk is full \(_bookkeeping\/questions\)/,
    );

    rmSync(filler);
    await expectAnsweredOnRetry(tb, id);
  });

  it("inside git add (git's object store full): the disk is full, nothing staged", async () => {
    const { tb, id } = await boxWithQuestion();
    const before = await snapshot(tb, id);
    const git = join(tb.dir, ".git");
    onTmpfs(git, "2m");
    const filler = fill(git);

    const failed = await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) });
    // Doctor's trial commit fails on the full disk too.
    await expectCleanFailure(tb, id, before, failed, /the disk is full/, [
      { kind: "git", path: ".git" },
    ]);

    rmSync(filler);
    await expectAnsweredOnRetry(tb, id);
  });

  it("git's words hide a full disk (a commit message it could not write reads back empty): the disk is named", async () => {
    const { tb } = await boxWithQuestion();
    // Git's own refusal, as the box's git reports it (with the identity the box commits with:
    // without one, git refuses for that first on a machine with no user.email).
    const emptyMessage = await commitAs(tb.box, ["commit", "--allow-empty", "-m", ""]).then(
      () => undefined,
      (error: unknown) => error,
    );
    const git = join(tb.dir, ".git");
    onTmpfs(git, "2m");
    const filler = join(git, "filler");
    const page = Buffer.alloc(4096);
    try {
      for (let i = 0; i < 1024; i++) appendFileSync(filler, page);
    } catch {
      // ENOSPC: the disk is full now.
    }
    expect(faultOf(tb.box, emptyMessage)).toBe("the disk is full (.git)");
    rmSync(filler);
    expect(faultOf(tb.box, emptyMessage)).toBe(
      "git refused it: Aborting commit due to empty commit message.",
    );
  });

  it("inside git commit (the disk fills after git add staged both files): the index is put back", async () => {
    const { tb, id } = await boxWithQuestion();
    const before = await snapshot(tb, id);
    const git = join(tb.dir, ".git");
    onTmpfs(git, "2m");
    // The pre-commit hook runs after our `git add` staged the job and the card. It starts a
    // writer that keeps the disk full (as another program filling it would), so the commit
    // cannot write its objects and no new index can be written after it either.
    const filler = join(git, "filler");
    const filling = join(git, "filling");
    const hook = boxHookPath(tb.dir, "pre-commit");
    writeFileSync(filling, "");
    const keepFull = [
      `const fs = require("node:fs");`,
      `const fd = fs.openSync(${JSON.stringify(filler)}, "a");`,
      `const page = Buffer.alloc(4096);`,
      `let full = false;`,
      `const fillNow = () => { for (;;) { try { fs.writeSync(fd, page); } catch { full = true; return; } } };`,
      `fillNow();`,
      `const again = setInterval(() => { if (!fs.existsSync(${JSON.stringify(filling)})) clearInterval(again); else fillNow(); }, 1);`,
    ].join(" ");
    writeFileSync(join(git, "keep-full.cjs"), keepFull);
    writeFileSync(
      hook,
      [
        "#!/bin/sh",
        `'${process.execPath}' '${join(git, "keep-full.cjs")}' >/dev/null 2>&1 &`,
        `until [ -s '${filler}' ] && ! dd if=/dev/zero bs=4096 count=1 >> '${filler}' 2>/dev/null; do sleep 0.01; done`,
        "exit 0",
        "",
      ].join("\n"),
      { mode: 0o755 },
    );

    try {
      const failed = await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) });
      await expectCleanFailure(tb, id, before, failed, /the disk is full/, [
        { kind: "git", path: ".git" },
      ]);
    } finally {
      rmSync(filling, { force: true }); // the writer that keeps the disk full stops
    }
    rmSync(hook);
    await new Promise((resolve) => setTimeout(resolve, 100));
    rmSync(filler);
    await expectAnsweredOnRetry(tb, id);
  });
});

describe("the commit lock is lost while its commit runs", () => {
  it("an answer whose lock file was removed mid-commit is reported recorded, as it is", async () => {
    const { tb, id } = await boxWithQuestion();
    // The hook removes the commit lock and outlasts its refresh (half the 5 s stale time), so
    // proper-lockfile finds the lock compromised while the commit is landing.
    const lock = join(tb.dir, ".qbridge/locks/commit.lock");
    writeFileSync(
      boxHookPath(tb.dir, "pre-commit"),
      `#!/bin/sh\nrm -rf '${lock}'\nsleep 3\nexit 0\n`,
      { mode: 0o755 },
    );
    const answered = await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) });
    figures.injectedFaults++;
    expect(answered.stderr).toBe("");
    expect(answered.code).toBe(0);
    expect(await headFile(tb.dir, questionRel(id))).toContain("status: answered");
    expect(diskJobs(tb.dir)).toEqual([id]);
    expect(await gitStatus(tb.dir)).toBe("");
    figures.cleanFailures++;
  });
});

describe("git refuses the commit", () => {
  it("a failing pre-commit hook of the box's own: the hook's words in one sentence, card unchanged, no job", async () => {
    const { tb, id } = await boxWithQuestion();
    const before = await snapshot(tb, id);
    const hook = boxHookPath(tb.dir, "pre-commit");
    writeFileSync(hook, "#!/bin/sh\necho 'policy: the box is frozen' >&2\nexit 1\n", {
      mode: 0o755,
    });

    const failed = await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) });
    await expectCleanFailure(tb, id, before, failed, /git refused it: policy: the box is frozen/);
    expect(await gitStatus(tb.dir)).toBe("");

    rmSync(hook);
    await expectAnsweredOnRetry(tb, id);
  });

  it("a name git does not accept (user.name '.'): git's words in one sentence, and doctor's trial commit names it", async () => {
    const { tb, id } = await boxWithQuestion();
    const before = await snapshot(tb, id);
    execFileSync("git", ["-C", tb.dir, "config", "user.name", "."]);

    const failed = await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) });
    await expectCleanFailure(
      tb,
      id,
      before,
      failed,
      /git refused it: fatal: name consists only of disallowed characters/,
      [{ kind: "git", path: ".git" }],
    );

    execFileSync("git", ["-C", tb.dir, "config", "--unset", "user.name"]);
    await expectAnsweredOnRetry(tb, id);
  });

  it("a locked index (.git/index.lock present): says the index is locked, card unchanged, no job", async () => {
    const { tb, id } = await boxWithQuestion();
    const before = await snapshot(tb, id);
    // Left an hour ago by someone else's git: doctor names it (with the command to remove it).
    const lock = join(tb.dir, ".git/index.lock");
    copyFileSync(join(tb.dir, ".git/index"), lock);
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(lock, hourAgo, hourAgo);

    const failed = await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) });
    await expectCleanFailure(
      tb,
      id,
      before,
      failed,
      /git's index is locked \(\.git\/index\.lock exists/,
      [{ kind: "index-lock", path: ".git/index.lock" }],
    );

    rmSync(lock);
    expect(await gitStatus(tb.dir)).toBe("");
    await expectAnsweredOnRetry(tb, id);
  });
});
