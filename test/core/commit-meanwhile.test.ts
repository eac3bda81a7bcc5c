// Story: a short command's own work runs while git commits its change, where the process would
// otherwise wait for git: an ask opens the ledger while `git add` runs and makes its reply while
// `git commit` runs. Work done while adding may refuse the change: then nothing is committed (no
// commit, the files as before, nothing staged, no journal) and its own error is what the caller
// gets, so a ledger from a newer qbridge still stops `qbridge ask` before anything is filed.
// Work done while committing cannot undo the commit: the change stands, recorded, and its error
// is thrown after.

import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { applyAndCommit, type CommitPlan } from "../../src/box/commit.ts";
import { LedgerTooNew } from "../../src/errors.ts";
import { MIGRATIONS } from "../../src/ledger/migrations.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import {
  boxFileExists,
  cleanupBoxes,
  cliEnv,
  gitLog,
  gitStatus,
  makeBox,
  pendingCardText,
  questionRel,
  readBoxFile,
  runCli,
  selectCard,
  type TestBox,
} from "../support/box.ts";

afterEach(cleanupBoxes);

const subjects = (dir: string) =>
  execFileSync("git", ["log", "--format=%s"], { cwd: dir, encoding: "utf8" }).split("\n");

function plan(id: string, meanwhile: CommitPlan["meanwhile"]): CommitPlan {
  return {
    writes: [{ rel: questionRel(id), content: pendingCardText(selectCard()) }],
    message: `test: ${id}`,
    trailers: { Question: id },
    record: { questionId: id, action: "test" },
    meanwhile,
  };
}

function journals(tb: TestBox): string[] {
  return readdirSync(tb.box.paths.journalDir);
}

describe("work done while git runs", () => {
  it("runs while adding with the files written and no commit yet, then while committing, once each", async () => {
    const tb = await makeBox();
    const steps: string[] = [];
    const recorded: unknown[] = [];
    await applyAndCommit(
      tb.box,
      "mw-order",
      plan("mw-order", {
        whileAdding: () => {
          steps.push("adding");
          expect(boxFileExists(tb.dir, questionRel("mw-order"))).toBe(true);
          expect(subjects(tb.dir)).not.toContain("test: mw-order");
        },
        whileCommitting: () => steps.push("committing"),
      }),
      (_commit, record) => recorded.push(record),
    );
    expect(steps).toEqual(["adding", "committing"]);
    expect((await gitLog(tb.dir))[0]).toBe("test: mw-order");
    expect(recorded).toEqual([{ questionId: "mw-order", action: "test" }]);
    expect(await gitStatus(tb.dir)).toBe("");
    expect(journals(tb)).toEqual([]);
  });

  it("that throws while adding commits nothing and throws its own error: the files as before, nothing staged, no journal", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard({ id: "mw-refused" }));
    const card = readBoxFile(tb.dir, questionRel(id));
    const before = await gitLog(tb.dir);
    const refusal = new LedgerTooNew(tb.box.paths.ledgerPath, 99, 1);
    const rewrite = plan(id, {
      whileAdding: () => {
        throw refusal;
      },
    });
    await expect(applyAndCommit(tb.box, id, rewrite)).rejects.toBe(refusal);
    const fresh = plan("mw-new", {
      whileAdding: () => {
        throw refusal;
      },
    });
    await expect(applyAndCommit(tb.box, "mw-new", fresh)).rejects.toBe(refusal);
    expect(await gitLog(tb.dir)).toEqual(before);
    expect(readBoxFile(tb.dir, questionRel(id))).toBe(card);
    expect(boxFileExists(tb.dir, questionRel("mw-new"))).toBe(false);
    expect(await gitStatus(tb.dir)).toBe("");
    expect(journals(tb)).toEqual([]);
  });

  it("that throws while committing leaves the change committed and recorded, then throws its error", async () => {
    const tb = await makeBox();
    const recorded: unknown[] = [];
    const late = new Error("the reply could not be made");
    await expect(
      applyAndCommit(
        tb.box,
        "mw-late",
        plan("mw-late", {
          whileCommitting: () => {
            throw late;
          },
        }),
        (_commit, record) => recorded.push(record),
      ),
    ).rejects.toBe(late);
    expect((await gitLog(tb.dir))[0]).toBe("test: mw-late");
    expect(boxFileExists(tb.dir, questionRel("mw-late"))).toBe(true);
    expect(recorded).toHaveLength(1);
    expect(await gitStatus(tb.dir)).toBe("");
    expect(journals(tb)).toEqual([]);
  });

  it("an ask's meanwhile gets the question filed, once", async () => {
    const tb = await makeBox();
    const seen: string[] = [];
    const result = await askQuestion(tb, selectCard({ id: "mw-ask" }), {
      meanwhile: ({ id, card }) => seen.push(`${id}: ${card.prompt}`),
    });
    expect(seen).toEqual([`mw-ask: ${result.card.prompt}`]);
    expect((await gitLog(tb.dir))[0]).toMatch(/^ask: /);
  });

  it("an ask whose ledger cannot be opened (a newer qbridge's) files nothing: exit 4, the ledger named", async () => {
    const tb = await makeBox();
    tb.ledger.db.pragma(`user_version = ${MIGRATIONS.length + 5}`);
    tb.ledger.close();
    const before = await gitLog(tb.dir);
    const asked = await runCli(["ask", "--json"], {
      env: cliEnv(tb.dir),
      input: JSON.stringify(selectCard({ id: "mw-newer-ledger" })),
    });
    expect(asked.code).toBe(4);
    expect(asked.stderr).toContain(
      `qbridge: the ledger ${tb.box.paths.ledgerPath} was written by a newer qbridge`,
    );
    expect(await gitLog(tb.dir)).toEqual(before);
    expect(boxFileExists(tb.dir, questionRel("mw-newer-ledger"))).toBe(false);
    expect(await gitStatus(tb.dir)).toBe("");
    expect(journals(tb)).toEqual([]);
  });
});
