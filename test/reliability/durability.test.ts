// Story: the boxholder sees "answered" and the power goes out a moment later. What the answer
// wrote must already be on the disk: the follow-up job and the card (each file's data before
// its rename, then its folder), the undo journal, and git's commit (its objects, the index and
// the branch's ref). Watched from outside with strace, which lists every fsync the qbridge
// process and its git children make, with the file each one flushed.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import {
  CLI,
  cleanupBoxes,
  cliEnv,
  jobRel,
  makeBox,
  questionRel,
  selectCard,
  T0,
} from "../support/box.ts";
import { headFile } from "./invariants.ts";

afterAll(cleanupBoxes);

/** Runs `qbridge ARGS` under strace; returns its exit code and the paths each fsync flushed. */
function tracedCli(args: string[], env: Record<string, string>, log: string) {
  return new Promise<{ code: number | null; flushed: string[] }>((resolve, reject) => {
    const child = spawn(
      "strace",
      ["-f", "-y", "-e", "trace=fsync,fdatasync", "-o", log, process.execPath, CLI, ...args],
      { env: { ...process.env, QBRIDGE_TIME: T0, ...env }, stdio: "ignore" },
    );
    child.on("error", reject);
    child.on("close", (code) => {
      const flushed = [
        ...readFileSync(log, "utf8").matchAll(/f(?:data)?sync\(\d+<([^>]*)>\) = 0/g),
      ];
      resolve({ code, flushed: flushed.map((m) => m[1] as string) });
    });
  });
}

describe("an acknowledged answer survives a power cut", () => {
  it("flushes the job, the card, their folders, the journal, and git's objects, index and ref before it returns", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard());
    const { code, flushed } = await tracedCli(
      ["answer", id, "b"],
      cliEnv(tb.dir),
      join(tb.dir, ".git", "strace.log"),
    );
    expect(code).toBe(0);
    expect(await headFile(tb.dir, questionRel(id))).toContain("status: answered");
    const under = (rel: string) => flushed.filter((path) => path.startsWith(join(tb.dir, rel)));

    // Each file's data before its rename, then the folder that holds the rename.
    expect(under(`${jobRel(id)}.`)).toHaveLength(1);
    expect(under(`${questionRel(id)}.`)).toHaveLength(1);
    expect(flushed).toContain(join(tb.dir, "_bookkeeping/jobs"));
    expect(flushed).toContain(join(tb.dir, "_bookkeeping/questions"));
    expect(under(`.qbridge/journal/${id}.json.`)).toHaveLength(1);
    // Git's side of the commit: the blobs, tree and commit objects, the index, the ref.
    expect(under(".git/objects/").length).toBeGreaterThanOrEqual(4);
    expect(flushed).toContain(join(tb.dir, ".git/index.lock"));
    expect(flushed).toContain(join(tb.dir, ".git/refs/heads/main.lock"));
  });
});
