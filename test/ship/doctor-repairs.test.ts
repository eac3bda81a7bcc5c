// Each of doctor's built-in checks carries its own repair, as the passed-in ones do: repair
// applies what the findings carry and knows no list of kinds.

import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { examineBox, repairBox } from "../../src/questions/doctor/doctor.ts";
import { cleanupBoxes, jobRel, makeBox, questionRel, selectCard } from "../support/box.ts";

afterAll(cleanupBoxes);

const LONG_AGO = new Date(Date.now() - 3_600_000);

describe("doctor's built-in checks", () => {
  it("every repairable finding carries its own repair, and repair applies exactly those", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard());
    const staleLock = join(tb.dir, `.qbridge/locks/${id}.lock`);
    mkdirSync(staleLock, { recursive: true });
    utimesSync(staleLock, LONG_AGO, LONG_AGO);
    const indexLock = join(tb.dir, ".git/index.lock");
    writeFileSync(indexLock, "");
    utimesSync(indexLock, LONG_AGO, LONG_AGO);
    writeFileSync(join(tb.dir, jobRel(id)), "---\nstray: true\n---\n");

    const findings = await examineBox(tb);
    expect(findings.map((f) => f.kind).sort()).toEqual(["index-lock", "stale-lock", "stray-job"]);
    for (const finding of findings) expect(finding.apply).toBeTypeOf("function");

    await repairBox(tb, findings);
    expect(findings.every((f) => f.repaired)).toBe(true);
    expect(await examineBox(tb)).toEqual([]);
  });

  it("an uncommitted file's fix works as written: an untracked one deleted, a changed one restored", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard());
    writeFileSync(join(tb.dir, "_bookkeeping/notes.md"), "by hand\n");
    appendFileSync(join(tb.dir, questionRel(id)), "\nA line added by hand.\n");

    const findings = await examineBox(tb);
    expect(findings.map((f) => [f.kind, f.path]).sort()).toEqual([
      ["dirty-index", "_bookkeeping/notes.md"],
      ["dirty-index", questionRel(id)],
    ]);
    // What an operator pastes: the command after "or discard it: ".
    for (const { fix } of findings) {
      const discard = fix.split("or discard it: ")[1];
      expect(discard, fix).toBeDefined();
      execFileSync("sh", ["-c", discard as string]);
    }
    expect(await examineBox(tb)).toEqual([]);
  });
});
