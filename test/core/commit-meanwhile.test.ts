// Story: a short command's own work (the ask's reply, and opening the ledger) runs while git
// commits its question, when the process would otherwise wait for git. It runs once git is
// under way and before the commit lands; if it fails, nothing is filed (no commit, no card,
// nothing staged, no journal) and its own error is what the caller gets: a ledger from a newer
// qbridge still stops `qbridge ask` before anything is filed.

import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
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
  questionRel,
  runCli,
  selectCard,
} from "../support/box.ts";

afterEach(cleanupBoxes);

describe("an ask's meanwhile", () => {
  it("runs once, with the card written and its commit not landed yet; the commit then lands", async () => {
    const tb = await makeBox();
    const seen: { id: string; onDisk: boolean; subjects: string[] }[] = [];
    const result = await askQuestion(tb, selectCard({ id: "mw-runs" }), {
      meanwhile: ({ id }) => {
        seen.push({
          id,
          onDisk: boxFileExists(tb.dir, questionRel(id)),
          subjects: execFileSync("git", ["log", "--format=%s"], { cwd: tb.dir, encoding: "utf8" })
            .split("\n")
            .filter(Boolean),
        });
      },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.id).toBe("mw-runs");
    expect(seen[0]?.onDisk).toBe(true);
    expect(seen[0]?.subjects.some((s) => s.startsWith("ask:"))).toBe(false);
    expect(result.commit).toBeDefined();
    expect((await gitLog(tb.dir))[0]).toMatch(/^ask: Where do photographed receipts belong/);
    expect(await gitStatus(tb.dir)).toBe("");
  });

  it("that throws files nothing and throws its own error: no commit, no card, nothing staged, no journal", async () => {
    const tb = await makeBox();
    const before = await gitLog(tb.dir);
    const refusal = new LedgerTooNew(tb.box.paths.ledgerPath, 99, 1);
    await expect(
      askQuestion(tb, selectCard({ id: "mw-throws" }), {
        meanwhile: () => {
          throw refusal;
        },
      }),
    ).rejects.toBe(refusal);
    expect(await gitLog(tb.dir)).toEqual(before);
    expect(boxFileExists(tb.dir, questionRel("mw-throws"))).toBe(false);
    expect(await gitStatus(tb.dir)).toBe("");
    expect(readdirSync(tb.box.paths.journalDir)).toEqual([]);
    // The box takes the next ask as if nothing had happened.
    await askQuestion(tb, selectCard({ id: "mw-throws" }));
    expect(boxFileExists(tb.dir, questionRel("mw-throws"))).toBe(true);
  });

  it("that cannot open the ledger (a newer qbridge's) leaves qbridge ask filing nothing, exit 4, the ledger named", async () => {
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
    expect(readdirSync(tb.box.paths.journalDir)).toEqual([]);
  });
});
