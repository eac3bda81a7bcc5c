// Story: a person pipes a command into `head` (`qbridge doctor | head -4`), and `head` goes away
// before the command has written everything. The command ends quietly, as a Unix program
// killed by SIGPIPE does: exit status 141, nothing on stderr, no stack trace. `serve` stops in
// order first.

import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import {
  CLI,
  cleanupBoxes,
  cliEnv,
  confirmCard,
  makeBox,
  selectCard,
  T0,
  type TestBox,
} from "../support/box.ts";

afterAll(cleanupBoxes);

/** Runs qbridge with its standard output already closed by the reader; returns how it ended. */
function withClosedOutput(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/", QBRIDGE_TIME: T0, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // The reader is gone before the first write, as `head` is once it has its lines.
  child.stdout.destroy();
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  return new Promise((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stderr })),
  );
}

describe("a command whose reader went away", () => {
  let tb: TestBox;
  beforeAll(async () => {
    tb = await makeBox();
    await askQuestion(tb, selectCard());
    await askQuestion(tb, confirmCard());
  });

  for (const args of [["doctor"], ["list", "--all"], ["list", "--json"], ["help", "ask"]]) {
    it(`qbridge ${args.join(" ")} ends with status 141 and says nothing`, async () => {
      const ended = await withClosedOutput(args, cliEnv(tb.dir));
      expect(ended).toEqual({ code: 141, signal: null, stderr: "" });
    });
  }

  it("qbridge serve stops in order and ends with status 141, no stack trace", async () => {
    const ended = await withClosedOutput(["serve"], {
      ...cliEnv(tb.dir),
      QBRIDGE_WEB_PORT: "0",
    });
    expect(ended.code).toBe(141);
    expect(ended.stderr).not.toMatch(/^\s+at /m);
    expect(ended.stderr).not.toMatch(/EPIPE|unexpected failure/);
  });
});
