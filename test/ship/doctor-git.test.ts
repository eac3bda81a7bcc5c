// Story: the box's .git is damaged (a garbage HEAD, a corrupt index, corrupt objects). Doctor
// never fails with "unexpected failure": it names each problem with its fix, the fix it gives
// works, and once it is applied the box answers again.

import { execFileSync } from "node:child_process";
import { chmodSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import type { Finding } from "../../src/questions/doctor/doctor.ts";
import { cleanupBoxes, cliEnv, gitStatus, makeBox, runCli, selectCard } from "../support/box.ts";
import { pathWhereGitSeesAnotherOwner } from "../support/other-owner.ts";

afterAll(cleanupBoxes);

async function boxWithQuestion() {
  const tb = await makeBox();
  const { id } = await askQuestion(tb, selectCard());
  return { tb, id };
}

async function doctor(dir: string, ...args: string[]) {
  const result = await runCli(["doctor", "--json", ...args], { env: cliEnv(dir) });
  expect(result.stderr).not.toContain("unexpected failure");
  return { code: result.code, findings: JSON.parse(result.stdout).findings as Finding[] };
}

describe.concurrent("doctor on a damaged .git", () => {
  it("a garbage HEAD: named with the command that points it back, which works", async () => {
    const { tb, id } = await boxWithQuestion();
    writeFileSync(join(tb.dir, ".git/HEAD"), "garbage\n");
    const { code, findings } = await doctor(tb.dir);
    expect(code).toBe(1);
    expect(findings).toEqual([
      expect.objectContaining({ kind: "git", path: ".git/HEAD", repairable: false }),
    ]);
    const fix = findings[0]?.fix ?? "";
    const command = /^(printf .*?HEAD') points/.exec(fix)?.[1];
    expect(command).toBeDefined();
    execFileSync("sh", ["-c", command as string]);
    expect((await doctor(tb.dir)).findings).toEqual([]);
    expect((await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) })).code).toBe(0);
  });

  it("a corrupt index: named, and doctor --repair rebuilds it from the last commit", async () => {
    const { tb, id } = await boxWithQuestion();
    writeFileSync(join(tb.dir, ".git/index"), "DIRC not an index at all");
    const { code, findings } = await doctor(tb.dir);
    expect(code).toBe(1);
    expect(findings).toEqual([
      expect.objectContaining({ kind: "git-index", path: ".git/index", repairable: true }),
    ]);
    expect(findings[0]?.problem).toContain("git's index is corrupt");
    const repaired = await doctor(tb.dir, "--repair");
    expect(repaired.code).toBe(0);
    expect(await gitStatus(tb.dir)).toBe("");
    expect(readdirSync(join(tb.dir, ".git")).some((n) => n.startsWith("index.corrupt-"))).toBe(
      true,
    );
    expect((await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) })).code).toBe(0);
  });

  it("corrupt objects: named by git fsck with the fix to restore the box, no crash", async () => {
    const { tb } = await boxWithQuestion();
    const objects = join(tb.dir, ".git/objects");
    for (const folder of readdirSync(objects).filter((n) => /^[0-9a-f]{2}$/.test(n))) {
      for (const name of readdirSync(join(objects, folder))) {
        chmodSync(join(objects, folder, name), 0o644);
        writeFileSync(join(objects, folder, name), "junk");
      }
    }
    const { code, findings } = await doctor(tb.dir);
    expect(code).toBe(1);
    expect(findings.length).toBeGreaterThan(0);
    for (const finding of findings) {
      expect(finding).toMatchObject({ kind: "git", repairable: false });
      expect(finding.fix).toContain("fsck");
    }
  });

  it("a box owned by another user: named as that, with the fixes, not as damage to restore", async () => {
    const { tb } = await boxWithQuestion();
    const path = pathWhereGitSeesAnotherOwner(tb.dir);
    const result = await runCli(["doctor", "--json"], {
      env: cliEnv(tb.dir, { PATH: path }),
    });
    expect(result.code).toBe(1);
    const findings = JSON.parse(result.stdout).findings as Finding[];
    expect(findings).toEqual([
      expect.objectContaining({ kind: "git", path: ".git", repairable: false }),
    ]);
    expect(findings[0]?.problem).toMatch(/owned by another user/);
    expect(findings[0]?.fix).toContain("sudo -u");
    expect(findings[0]?.fix).toContain(`safe.directory '${tb.dir}'`);
    expect(findings[0]?.fix).not.toContain("restore");
  });
});
