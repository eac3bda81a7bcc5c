// Story: an operator looking into a problem sets DEBUG as the libraries document it:
// DEBUG=simple-git* shows the git commands a command runs, DEBUG=grammy* the bot's Bot API
// calls. `qbridge doctor` against a Bot API it cannot reach reports that as a problem, never
// as an unexpected failure.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI } from "../support/box.ts";

const work = mkdtempSync(join(tmpdir(), "qbridge-library-logs-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A bot whose Bot API is a closed loopback port: each call fails after it has gone out. */
const UNREACHABLE_BOT = {
  TELEGRAM_BOT_TOKEN: "123456:AAExampleTokenFromBotFather000000000",
  TELEGRAM_API_ROOT: "http://127.0.0.1:9",
};

function newBox(name: string): string {
  const box = join(work, name);
  execFileSync(process.execPath, [CLI, "init", "--box", box], { cwd: work });
  return box;
}

function qbridge(args: string[], env: Record<string, string>, input = "") {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    cwd: work,
    input,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: work, ...env },
  });
  return { code: run.status, stderr: run.stderr };
}

describe("library logs and an unreachable Bot API", () => {
  it("DEBUG=simple-git* shows the git commands a command runs", () => {
    const box = newBox("debug-box");
    const card = JSON.stringify({
      id: "keep-debug",
      prompt: "Keep the debug logs?",
      memo: "The disk is 90% full.",
      input: { type: "confirm" },
      directive: "Delete them or keep them.",
    });
    const { code, stderr } = qbridge(
      ["ask", "--json", "--box", box],
      { DEBUG: "simple-git*" },
      card,
    );
    expect(code).toBe(0);
    expect(stderr).toMatch(/simple-git.*commit/);
  });

  it("doctor reports a Bot API it cannot reach as a problem (exit 0 or 1), not an unexpected failure", () => {
    const box = newBox("bot-box");
    const { code, stderr } = qbridge(["doctor", "--box", box], UNREACHABLE_BOT);
    expect([0, 1]).toContain(code);
    expect(stderr).not.toMatch(/unexpected failure/);
  });

  it("DEBUG=grammy* shows the bot's Bot API calls", () => {
    const box = newBox("bot-debug-box");
    const { code, stderr } = qbridge(["doctor", "--box", box], {
      DEBUG: "grammy*",
      ...UNREACHABLE_BOT,
    });
    expect([0, 1]).toContain(code);
    expect(stderr).toMatch(/grammy:core Calling getMe/);
  });
});
