// Story: an agent runs `qbridge --version`, `qbridge ask` and `qbridge show` many times a day;
// each process loads only what its command needs (start-up is most of a short command), and
// every command the CLI has is in the table that decides what to load.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterAll, describe, expect, it } from "vitest";
import { FAMILIES, familiesFor } from "../../src/cli/families.ts";
import { CLI, ROOT } from "../support/box.ts";

const work = mkdtempSync(join(tmpdir(), "qbridge-loading-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The packages (by name under node_modules) a `qbridge ARGS` process resolved. */
function packagesLoaded(args: string[], input = ""): Set<string> {
  const log = join(work, `modules-${Math.random().toString(36).slice(2)}.log`);
  execFileSync(
    process.execPath,
    ["--import", join(ROOT, "test/support/record-modules.mjs"), CLI, ...args],
    {
      cwd: work,
      input,
      env: { PATH: process.env.PATH ?? "", HOME: work, QBRIDGE_TEST_MODULE_LOG: log },
    },
  );
  const names = readFileSync(log, "utf8")
    .split("\n")
    .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
    .filter((name): name is string => name !== undefined);
  return new Set(names);
}

const SERVICE_ONLY = ["grammy", "hono", "@hono/node-server", "pino", "pino-pretty"];
const BOX_LIBRARIES = ["zod", "yaml", "simple-git", "better-sqlite3", "proper-lockfile"];

describe("what a command loads", () => {
  it("qbridge --version loads none of the libraries a box or the service needs", () => {
    const loaded = packagesLoaded(["--version"]);
    for (const name of [...BOX_LIBRARIES, ...SERVICE_ONLY]) expect(loaded).not.toContain(name);
  });

  it("qbridge ask and qbridge show load neither the bot, the web server nor the logger", () => {
    const box = join(work, "box");
    execFileSync(process.execPath, [CLI, "init", "--box", box], { cwd: work });
    const card = JSON.stringify({
      id: "keep-logs",
      prompt: "Keep the old logs?",
      memo: "The disk is 90% full.",
      input: { type: "confirm" },
      directive: "Delete them or keep them.",
    });
    const asked = packagesLoaded(["ask", "--box", box], card);
    const shown = packagesLoaded(["show", "keep-logs", "--box", box]);
    for (const loaded of [asked, shown])
      for (const name of SERVICE_ONLY) expect(loaded).not.toContain(name);
  });

  it("every command the CLI registers is in the table of command families", async () => {
    for (const family of FAMILIES) {
      const program = new Command("qbridge");
      (await family.register())(program);
      expect(program.commands.map((c) => c.name()).sort()).toEqual([...family.commands].sort());
    }
    expect(familiesFor(["--version"])).toEqual([]);
    expect(familiesFor(["show", "x", "--json"])).toHaveLength(1);
    expect(familiesFor(["help"])).toBe(FAMILIES);
  });
});
