// Story: the boxholder asks "what is waiting on me?" and looks back at what was settled.
// Pending questions come in slot order (priority, then earliest expiry, then oldest); the
// archive shows answered, dismissed and expired questions with their recorded answers; the
// follow-up jobs are listed for the agent side.

import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LedgerTooNew } from "../../src/errors.ts";
import { INDEX_RULES } from "../../src/ledger/card-index.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import { MIGRATIONS } from "../../src/ledger/migrations.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { dismissQuestion, expireQuestion } from "../../src/questions/close.ts";
import { boxState, listJobs, waiting } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import {
  atTime,
  CLI,
  type CliResult,
  childResult,
  cleanupBoxes,
  cliEnv,
  confirmCard,
  makeBox,
  pendingCardText,
  questionRel,
  ROOT,
  runCli,
  selectCard,
  T0,
  type TestBox,
  textCard,
  writeCardFile,
} from "../support/box.ts";
import { runOnReadOnlyBox } from "../support/read-only.ts";

let tb: TestBox;
const ids: Record<string, string> = {};

async function ask(name: string, time: string, card: Record<string, unknown>) {
  ids[name] = (await askQuestion(atTime(tb, time), { ...card, prompt: `${name}?` })).id;
}

beforeAll(async () => {
  tb = await makeBox({ time: "2026-07-20T09:00:00Z" });
  await ask("low-oldest", "2026-07-01T09:00:00Z", selectCard({ priority: "low" }));
  await ask("medium-old", "2026-07-02T09:00:00Z", selectCard());
  await ask("medium-new", "2026-07-05T09:00:00Z", selectCard());
  await ask("medium-expires-soon", "2026-07-06T09:00:00Z", selectCard({ "expires-after": "P5D" }));
  await ask("high-newest", "2026-07-09T09:00:00Z", selectCard({ priority: "high" }));
  await ask("answered", "2026-07-03T09:00:00Z", confirmCard());
  await ask("dismissed", "2026-07-03T10:00:00Z", textCard());
  await ask("expired", "2026-07-03T11:00:00Z", textCard());
  await answerQuestion(
    atTime(tb, "2026-07-12T09:00:00Z"),
    ids.answered as string,
    { text: "y" },
    {
      via: "web",
    },
  );
  await dismissQuestion(atTime(tb, "2026-07-13T09:00:00Z"), ids.dismissed as string, {
    via: "cli",
  });
  await expireQuestion(atTime(tb, "2026-07-11T09:00:00Z"), ids.expired as string);
});
afterAll(cleanupBoxes);

describe("the pending questions", () => {
  it("come in slot order: priority, then earliest expiry, then oldest", () => {
    expect(boxState(tb).pending.map((q) => q.card.prompt)).toEqual([
      "high-newest?",
      "medium-expires-soon?",
      "medium-old?",
      "medium-new?",
      "low-oldest?",
    ]);
  });

  it("answer 'what is waiting on me?' with the count and the top question alone", () => {
    const { count, top } = waiting(tb);
    expect(count).toBe(5);
    expect(top?.id).toBe(ids["high-newest"]);
  });

  it("include cards filed by hand in a subfolder, which answer like any other", async () => {
    mkdirSync(join(tb.dir, "_bookkeeping/questions/team"), { recursive: true });
    writeCardFile(tb.dir, "team/nested", pendingCardText(selectCard({ prompt: "Nested?" })));
    expect(boxState(tb).pending.map((q) => q.id)).toContain("nested");
    await answerQuestion(tb, "nested", { text: "a" }, { via: "cli" });
    const loaded = loadQuestion(tb, "nested");
    expect(loaded.rel).toBe("_bookkeeping/questions/team/nested.question.card");
    expect(loaded.card.status).toBe("answered");
    expect(boxState(tb).pending.map((q) => q.id)).not.toContain("nested");
  });
});

describe("the archive", () => {
  it("lists answered, dismissed and expired questions, most recently closed first, with the recorded answer", () => {
    const archive = boxState(tb).archive.filter((q) => q.id !== "nested");
    expect(archive.map((q) => [q.card.prompt, q.card.status])).toEqual([
      ["dismissed?", "dismissed"],
      ["answered?", "answered"],
      ["expired?", "expired"],
    ]);
    expect(archive[1]?.card.answer).toEqual({ text: "Yes", selected: "yes" });
  });
});

describe("on the command line", () => {
  it("`waiting` shows the count and the top question; `jobs` lists the follow-up jobs", async () => {
    const [waited, jobs] = await Promise.all([
      runCli(["waiting"], { env: cliEnv(tb.dir) }),
      runCli(["jobs", "--json"], { env: cliEnv(tb.dir) }),
    ]);
    expect(waited.code).toBe(0);
    expect(waited.stdout).toMatch(/^5 waiting\. Top:\n\nhigh-newest\?\n/);
    expect(jobs.code).toBe(0);
    const listed = JSON.parse(jobs.stdout) as { job: { "question-id": string } }[];
    expect(listed.map((j) => j.job["question-id"]).sort()).toEqual(
      listJobs(tb)
        .map((j) => j.job?.["question-id"])
        .sort(),
    );
    expect(listed.map((j) => j.job["question-id"])).toContain(ids.answered);
  });
});

describe("the card index (file stat, kept in the ledger)", () => {
  it("sees a card edited in place, one deleted, one filed by hand and one broken, on the next list", async () => {
    const box = await makeBox();
    const edited = (await askQuestion(box, selectCard({ prompt: "Before the edit?" }))).id;
    const deleted = (await askQuestion(box, selectCard({ prompt: "Deleted soon?" }))).id;
    expect(
      boxState(box)
        .pending.map((q) => q.card.prompt)
        .sort(),
    ).toEqual(["Before the edit?", "Deleted soon?"]);

    const path = join(box.dir, loadQuestion(box, edited).rel);
    writeFileSync(path, readFileSync(path, "utf8").replace("Before the edit?", "After it?"));
    rmSync(join(box.dir, loadQuestion(box, deleted).rel));
    mkdirSync(join(box.dir, "_bookkeeping/questions/by-hand"), { recursive: true });
    writeCardFile(box.dir, "by-hand/filed", pendingCardText(selectCard({ prompt: "By hand?" })));
    writeCardFile(box.dir, "broken", "---\nstatus: [unclosed\n---\n");

    const after = boxState(box);
    expect(after.pending.map((q) => q.card.prompt).sort()).toEqual(["After it?", "By hand?"]);
    expect(after.unreadable.map((u) => u.rel)).toEqual([
      "_bookkeeping/questions/broken.question.card",
    ]);
    // The same again from the index alone: nothing changed since.
    expect(boxState(box)).toEqual(after);
  });

  it("re-reads every card after an upgrade: a card the new rules reject is never served from the old index", async () => {
    const box = await makeBox();
    const id = (await askQuestion(box, selectCard({ prompt: "Fine under the old rules?" }))).id;
    expect(boxState(box).pending.map((q) => q.id)).toEqual([id]);
    // What an older qbridge left: its index row (same stat as the file, so it looks fresh)
    // says pending, but the file breaks today's rules (one option), under another rules key.
    const path = join(box.dir, loadQuestion(box, id).rel);
    const oneOption = readFileSync(path, "utf8").replace(
      /\n {4}- id: taxes\n.*\n {4}- id: _other\n.*\n/,
      "\n",
    );
    writeFileSync(path, oneOption);
    const db = box.ledger.db;
    const stat = statSync(path);
    db.prepare("UPDATE card_index SET size = ?, mtime = ?").run(stat.size, String(stat.mtimeMs));
    db.prepare("UPDATE meta SET value = 'rules-of-an-older-qbridge' WHERE key = ?").run(
      "card-index-rules",
    );

    const after = boxState(box);
    expect(after.pending).toEqual([]);
    expect(after.unreadable).toEqual([
      { rel: questionRel(id), reason: "input.options: a select question needs at least 2 options" },
    ]);
    expect(box.ledger.getMeta("card-index-rules")).toBe(INDEX_RULES);
  });

  it("a box indexed under the rules before version 2 (times, durations and names unbounded) reads its cards again", async () => {
    const box = await makeBox();
    const id = (await askQuestion(box, selectCard({ "expires-after": "P9D" }))).id;
    expect(boxState(box).pending.map((q) => q.id)).toEqual([id]);
    // Its index row says a pending card; the file now carries a deadline no Date holds, which
    // failed every listing under the old rules.
    const path = join(box.dir, loadQuestion(box, id).rel);
    writeFileSync(path, readFileSync(path, "utf8").replace("P9D", "P99999999Y"));
    const stat = statSync(path);
    const db = box.ledger.db;
    db.prepare("UPDATE card_index SET size = ?, mtime = ?").run(stat.size, String(stat.mtimeMs));
    const [, ...sameLists] = JSON.parse(INDEX_RULES) as unknown[];
    db.prepare("UPDATE meta SET value = ? WHERE key = ?").run(
      JSON.stringify([1, ...sameLists]),
      "card-index-rules",
    );

    expect(boxState(box).unreadable).toEqual([
      { rel: questionRel(id), reason: "expires-after: must be at most 100 years (P100Y)" },
    ]);
  });
});

describe("a box that cannot be used", () => {
  it("exits 4, not 1, with one sentence when the directory is not a box", async () => {
    const other = await makeBox();
    rmSync(join(other.dir, ".git"), { recursive: true, force: true });
    const listed = await runCli(["list"], { env: cliEnv(other.dir) });
    expect(listed.code).toBe(4);
    expect(listed.stderr.trim()).toMatch(/^qbridge: .+ is not a box .+: run "qbridge init/);
  });

  it("names a ledger from a newer qbridge with what to do, exiting 4, never as an unexpected failure", async () => {
    const other = await makeBox();
    other.ledger.db.pragma(`user_version = ${MIGRATIONS.length + 5}`);
    other.ledger.close();
    expect(() => new Ledger(other.box.paths.ledgerPath)).toThrow(LedgerTooNew);
    const listed = await runCli(["list"], { env: cliEnv(other.dir) });
    expect(listed.code).toBe(4);
    expect(listed.stderr.trim().split("\n")).toEqual([
      `qbridge: the ledger ${other.box.paths.ledgerPath} was written by a newer qbridge (schema ${MIGRATIONS.length + 5}, this one knows ${MIGRATIONS.length}): run that newer qbridge, or move the file aside to start a fresh ledger (old buttons go stale and a nudge may repeat; no answer is lost)`,
    ]);
  });
});

describe("a questions folder that is a symbolic link", () => {
  it("is refused as card links are: nothing is read through it and nothing is written through it", async () => {
    const box = await makeBox();
    const outside = mkdtempSync(join(tmpdir(), "qbridge-outside-"));
    try {
      writeFileSync(
        join(outside, "elsewhere.question.card"),
        pendingCardText(selectCard({ prompt: "From outside the box?" })),
      );
      const folder = join(box.dir, "_bookkeeping/questions");
      rmSync(folder, { recursive: true });
      symlinkSync(outside, folder);
      const refusal = `${folder} is a symbolic link (to ${outside}): card folders must be real folders inside the box; replace the link with the folder it points to`;

      const [listed, shown] = await Promise.all([
        runCli(["list"], { env: cliEnv(box.dir) }),
        runCli(["show", "elsewhere"], { env: cliEnv(box.dir) }),
      ]);
      for (const run of [listed, shown]) {
        expect(run.code).toBe(4);
        expect(run.stderr).toBe(`qbridge: ${refusal}\n`);
        expect(run.stdout).not.toContain("From outside the box?");
      }
      // A box opened before the link appeared (a running service) refuses the same way.
      expect(() => boxState(box)).toThrow(refusal);
      expect(() => loadQuestion(box, "elsewhere")).toThrow(refusal);
      await expect(askQuestion(box, selectCard({ id: "written-out" }))).rejects.toThrow(refusal);
      expect(readdirSync(outside)).toEqual(["elsewhere.question.card"]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

/** `qbridge` as root without the capabilities that let root read any file (setpriv). */
function runCliAsPlainUser(
  args: string[],
  options: { env: Record<string, string> },
): Promise<CliResult> {
  const child = spawn(
    "setpriv",
    ["--bounding-set", "-dac_override,-dac_read_search", process.execPath, CLI, ...args],
    {
      cwd: ROOT,
      env: { ...process.env, QBRIDGE_TIME: T0, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return childResult(child);
}

describe("a card the disk fails to give", () => {
  it("is not taken for a missing or a bad card: show exits 4 naming the read error, list names it and goes on", async () => {
    const box = await makeBox();
    const good = (await askQuestion(box, selectCard({ prompt: "Readable?" }))).id;
    const locked = (await askQuestion(box, selectCard({ prompt: "Locked away?" }))).id;
    const path = join(box.dir, questionRel(locked));
    // Root reads any file; the child then runs without the capabilities that allow it.
    const root = process.getuid?.() === 0;
    if (root) chownSync(path, 65534, 65534);
    chmodSync(path, 0);
    const run = (args: string[]) =>
      (root ? runCliAsPlainUser : runCli)(args, { env: cliEnv(box.dir) });
    try {
      const [shown, listed] = await Promise.all([run(["show", locked]), run(["list", "--json"])]);
      expect(shown.code).toBe(4);
      expect(shown.stderr).toBe(
        `qbridge: ${questionRel(locked)} could not be read from disk (EACCES): the disk or the file's permissions failed, not the card; fix them and try again\n`,
      );
      expect(listed.code, listed.stderr).toBe(0);
      const state = JSON.parse(listed.stdout);
      expect(state.pending.map((q: { id: string }) => q.id)).toEqual([good]);
      expect(state.unreadable).toEqual([
        {
          rel: questionRel(locked),
          reason: expect.stringContaining("could not be read from disk (EACCES)"),
        },
      ]);
    } finally {
      chmodSync(path, 0o644);
    }
    // Readable again, it is listed again: the failed read was not kept in the index.
    const again = JSON.parse((await runCli(["list", "--json"], { env: cliEnv(box.dir) })).stdout);
    expect(again.pending.map((q: { id: string }) => q.id).sort()).toEqual([good, locked].sort());
  });
});

function runCliReadOnly(
  dir: string,
  args: string[],
  input = "",
  env: Record<string, string> = {},
): Promise<CliResult> {
  return runOnReadOnlyBox(dir, args, {
    env: { ...process.env, QBRIDGE_TIME: T0, ...cliEnv(dir), ...env },
    input,
  });
}

describe("a read-only box", () => {
  it("can be read (list, show, waiting, jobs, doctor); a write is refused with one sentence and changes nothing", async () => {
    const box = await makeBox();
    const open = (await askQuestion(box, selectCard({ prompt: "Still open?" }))).id;
    const done = (await askQuestion(box, confirmCard())).id;
    await answerQuestion(box, done, { text: "yes" }, { via: "cli" });
    box.ledger.close();
    const files = () =>
      execFileSync("git", ["-C", box.dir, "status", "--porcelain", "--ignored"], {
        encoding: "utf8",
      });
    const before = files();

    const [list, show, waitingNow, jobs, doctor] = await Promise.all([
      runCliReadOnly(box.dir, ["list", "--json"]),
      runCliReadOnly(box.dir, ["show", open]),
      runCliReadOnly(box.dir, ["waiting", "--json"]),
      runCliReadOnly(box.dir, ["jobs", "--json"]),
      runCliReadOnly(box.dir, ["doctor", "--json"]),
    ]);
    for (const run of [list, show, waitingNow, jobs, doctor]) expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(list.stdout).pending.map((q: { id: string }) => q.id)).toEqual([open]);
    expect(show.stdout).toContain("Still open?");
    expect(JSON.parse(waitingNow.stdout).count).toBe(1);
    expect(JSON.parse(jobs.stdout)).toHaveLength(1);
    expect(JSON.parse(doctor.stdout)).toEqual({ healthy: true, findings: [] });

    const refusal = `qbridge: ${box.dir} is read-only: list, show, waiting, jobs and doctor work, but asking, answering, dismissing, expiring and repairs need a writable box; make it writable and try again\n`;
    const [answered, asked] = await Promise.all([
      runCliReadOnly(box.dir, ["answer", open, "a"]),
      runCliReadOnly(box.dir, ["ask"], JSON.stringify(textCard())),
    ]);
    for (const run of [answered, asked]) {
      expect(run.code).toBe(4);
      expect(run.stderr).toBe(refusal);
    }
    // A pairing code would live only in the ledger's copy in memory: none is printed.
    const paired = await runCliReadOnly(box.dir, ["pair"]);
    expect(paired.code).toBe(4);
    expect(paired.stdout).toBe("");
    expect(paired.stderr).toBe(
      `qbridge: ${box.dir} is read-only: a pairing code is kept in the box's ledger, so pair needs a writable box; make it writable and try again\n`,
    );
    expect(files()).toBe(before);
  });

  it("wait reads a decided question's outcome (no write was left half done to finish first)", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, confirmCard());
    await answerQuestion(box, id, { text: "no" }, { via: "cli" });
    box.ledger.close();
    const waited = await runCliReadOnly(box.dir, ["wait", id, "--json"]);
    expect(waited.stderr).toBe("");
    expect(waited.code).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({
      id,
      status: "answered",
      answer: { text: "No" },
    });
  });

  it("never served, it has no link key: show --json gives the outcome without a link, link says why", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, confirmCard());
    box.ledger.close();
    expect(existsSync(join(box.dir, ".qbridge", "secret"))).toBe(false);
    const publicUrl = { QBRIDGE_PUBLIC_URL: "https://q.example.org" };

    const shown = await runCliReadOnly(box.dir, ["show", id, "--json"], "", publicUrl);
    expect(shown.stderr).toBe("");
    expect(JSON.parse(shown.stdout)).toMatchObject({ id, status: "pending" });
    expect(JSON.parse(shown.stdout).link).toBeUndefined();

    const linked = await runCliReadOnly(box.dir, ["link", id], "", publicUrl);
    expect(linked.code).toBe(4);
    expect(linked.stderr).toBe(
      `qbridge: ${box.dir} is read-only and has no link key yet (.qbridge/secret): make a link once where the box is writable, or where "qbridge serve" runs\n`,
    );
  });
});
