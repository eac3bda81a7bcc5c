// Story: an agent runs `qbridge` as a process many times a day; the launcher runs the CLI
// bundle with V8's code cache (src/cli/launch.ts). The build's cache serves the node that built
// it; any other node or V8 flags get a cache of the user's own, kept where only that user can
// write (compiled code read from a folder others can write would be theirs to choose).

import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/box.ts";

const work = mkdtempSync(join(tmpdir(), "qbridge-code-cache-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const LAUNCHER = join(ROOT, "dist/qbridge.cjs");
/** A V8 flag that changes nothing here but makes V8 reject a cache made without it. */
const OTHER_FLAGS = "--max-semi-space-size=2";

/** `qbridge ARGS` (by default `--help`, which the full CLI runs) and its standard output. */
function qbridge(cacheHome: string, nodeOptions = "", args = ["--help"]): string {
  return execFileSync(process.execPath, [LAUNCHER, ...args], {
    cwd: work,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", XDG_CACHE_HOME: cacheHome, NODE_OPTIONS: nodeOptions },
  }).trim();
}

const HELP = /^Usage: qbridge/;

describe("the launcher's code cache", () => {
  it("the build's caches serve the node that built it: a run writes no cache of its own", () => {
    const home = join(work, "served");
    const dist = readdirSync(join(ROOT, "dist"));
    // The full CLI's, one for each command the lean bundle runs (show, wait, list), and the
    // lean ask's.
    expect(dist.filter((f) => /^cli-.+\.cache$/.test(f))).toHaveLength(1);
    expect(dist.filter((f) => /^short-(show|wait|list)-.+\.cache$/.test(f))).toHaveLength(3);
    expect(dist.filter((f) => /^ask-.+\.cache$/.test(f))).toHaveLength(1);
    expect(qbridge(home)).toMatch(HELP);
    const box = join(work, "served-box");
    qbridge(home, "", ["init", "--box", box]);
    expect(JSON.parse(qbridge(home, "", ["list", "--json", "--box", box])).pending).toEqual([]);
    const asked = execFileSync(process.execPath, [LAUNCHER, "ask", "--json", "--box", box], {
      cwd: work,
      encoding: "utf8",
      input: JSON.stringify({
        prompt: "Cached?",
        memo: "A test.",
        input: { type: "confirm" },
        directive: "None.",
      }),
      env: { PATH: process.env.PATH ?? "", XDG_CACHE_HOME: home },
    });
    expect(JSON.parse(asked).deduplicated).toBe(false);
    expect(existsSync(join(home, "question-bridge"))).toBe(false);
  });

  it("under other V8 flags the first run keeps a cache of the user's own, which the next run reads", () => {
    const home = join(work, "own");
    expect(qbridge(home, OTHER_FLAGS)).toMatch(HELP);
    const folder = join(home, "question-bridge");
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const files = readdirSync(folder);
    expect(files).toHaveLength(1);
    const file = join(folder, files[0] as string);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const first = statSync(file);
    // Read and accepted: not written again (a rewrite replaces the file by rename).
    expect(qbridge(home, OTHER_FLAGS)).toMatch(HELP);
    expect(readdirSync(folder)).toEqual(files);
    expect(statSync(file).ino).toBe(first.ino);
  });

  it("a damaged cache of the user's is rejected and replaced, and the command still runs", () => {
    const home = join(work, "damaged");
    qbridge(home, OTHER_FLAGS);
    const folder = join(home, "question-bridge");
    const file = join(folder, readdirSync(folder)[0] as string);
    writeFileSync(file, "not a code cache at all", { mode: 0o600 });
    const damaged = statSync(file);
    expect(qbridge(home, OTHER_FLAGS)).toMatch(HELP);
    expect(statSync(file).ino).not.toBe(damaged.ino);
    expect(statSync(file).size).toBeGreaterThan(damaged.size);
  });

  it("writing its own cache takes away other builds' caches and partial writes a month old, not newer ones", () => {
    const home = join(work, "upgraded");
    const folder = join(home, "question-bridge");
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const monthAgo = (Date.now() - 31 * 24 * 60 * 60 * 1000) / 1000;
    const old = [
      "0123456789abcdef-runtime-help.cache",
      "0123456789abcdef-runtime-ask.cache.77.partial",
    ];
    const recent = ["fedcba9876543210-runtime-help.cache", "notes.txt"];
    for (const name of [...old, ...recent]) writeFileSync(join(folder, name), "x", { mode: 0o600 });
    for (const name of [...old, "notes.txt"]) utimesSync(join(folder, name), monthAgo, monthAgo);
    expect(qbridge(home, OTHER_FLAGS)).toMatch(HELP);
    const left = readdirSync(folder);
    expect(left.filter((name) => !recent.includes(name))).toHaveLength(1);
    expect(left).toEqual(expect.arrayContaining(recent));
    // This build's new cache is the one left beside the others.
    expect(left.find((name) => !recent.includes(name))).toMatch(/^[0-9a-f]{16}-.+\.cache$/);
  });

  it("a cache folder others may write to is neither read nor written", () => {
    const home = join(work, "shared");
    const folder = join(home, "question-bridge");
    mkdirSync(folder, { recursive: true });
    chmodSync(folder, 0o777);
    expect(qbridge(home, OTHER_FLAGS)).toMatch(HELP);
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe("the bundle's text", () => {
  it("each lean bundle holds only its own commands: ask's has no show, wait or list, the other no ask", () => {
    // The build keeps function names, so a command's body shows by its name.
    const text = (name: string) => readFileSync(join(ROOT, "dist", `${name}.cjs`), "latin1");
    const commands = ["askCommand", "showQuestion", "waitForQuestion", "listQuestions"];
    const held = (name: string) =>
      commands.filter((command) => text(name).includes(`function ${command}(`));
    expect(held("ask")).toEqual(["askCommand"]);
    expect(held("short")).toEqual(["showQuestion", "waitForQuestion", "listQuestions"]);
    expect(held("cli")).toEqual(commands);
  });

  it("prints the characters the sources write beyond ASCII as they are (the bundle escapes them)", () => {
    const box = join(work, "typographic-box");
    const run = (args: string[], input?: string) =>
      execFileSync(process.execPath, [LAUNCHER, ...args, "--box", box], {
        cwd: work,
        input,
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", HOME: work },
      });
    run(["init"]);
    run(
      ["ask", "--json"],
      JSON.stringify({
        id: "keep-cafe-logs",
        prompt: "Keep the café’s logs?",
        memo: "They are 2 GB.",
        input: { type: "confirm" },
        directive: "Delete them or keep them.",
      }),
    );
    run(["answer", "keep-cafe-logs", "yes"]);
    // render.ts writes "→" before an answer; the card's own text comes through as it was.
    expect(run(["list", "--all"])).toContain("Keep the café’s logs?  → Yes");
  });
});
