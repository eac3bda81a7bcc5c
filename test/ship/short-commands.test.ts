// Story: an agent runs `qbridge ask`, `show`, `wait` and `list` as processes many times a day. The
// launcher runs those command lines through a lean bundle (dist/short.cjs) and every other one
// through the full CLI (dist/cli.cjs); whichever runs, the agent sees the same output, the same
// errors and the same exit codes.

import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shortCommand } from "../../src/cli/short-args.ts";
import { ROOT, T0 } from "../support/box.ts";

const LAUNCHER = join(ROOT, "dist/qbridge.cjs");
const work = mkdtempSync(join(tmpdir(), "qbridge-short-"));
const box = join(work, "box");
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The bundles whose code ran, by file name. */
  bundles: string[];
}

/** `qbridge ARGS` through the launcher: as it chooses, or (`full`) through the full CLI. */
function run(args: string[], full = false, input = ""): Run {
  const coverage = mkdtempSync(join(work, "coverage-"));
  const script = `require(${JSON.stringify(LAUNCHER)}).launch({ args: JSON.parse(process.argv[1]), full: ${full} })`;
  const result = spawnSync(process.execPath, ["-e", script, JSON.stringify(args)], {
    cwd: work,
    input,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: work,
      QBRIDGE_TIME: T0,
      NODE_V8_COVERAGE: coverage,
    },
  });
  const bundles = ["cli.cjs", "short.cjs", "ask.cjs"].filter((name) => {
    const url = pathToFileURL(join(ROOT, "dist", name)).href;
    return readdirSync(coverage).some((file) =>
      readFileSync(join(coverage, file), "utf8").includes(JSON.stringify(url)),
    );
  });
  rmSync(coverage, { recursive: true, force: true });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, bundles };
}

function qbridge(args: string[], input = ""): void {
  execFileSync(process.execPath, [LAUNCHER, ...args, "--box", box], {
    cwd: work,
    input,
    env: { PATH: process.env.PATH ?? "", HOME: work, QBRIDGE_TIME: T0 },
  });
}

const card = (id: string, type = "confirm") =>
  JSON.stringify({
    id,
    prompt: `Keep ${id}?`,
    memo: "The disk is 90% full.",
    input: { type },
    directive: "Delete it or keep it.",
  });

beforeAll(() => {
  qbridge(["init"]);
  qbridge(["ask", "--json"], card("keep-old-logs-4f2a91"));
  qbridge(["answer", "keep-old-logs-4f2a91", "yes"]);
  qbridge(["ask", "--json"], card("keep-cache-77b0c3"));
  qbridge(["ask", "--json"], card("why-so-slow-19ce02", "text"));
  qbridge(["dismiss", "why-so-slow-19ce02"]);
  // A card edited by hand with a comment: a shape the usual-front reader leaves to yaml, which
  // the lean bundle loads from dist/yaml.cjs.
  qbridge(["ask", "--json"], card("edited-by-hand-5d0e6a"));
  const rel = "_bookkeeping/questions/edited-by-hand-5d0e6a.question.card";
  const text = readFileSync(join(box, rel), "utf8");
  writeFileSync(
    join(box, rel),
    text.replace("\nmemo:", "\n# asked again after the cleanup\nmemo:"),
  );
  // A card broken by hand (its YAML does not parse): show and wait of it say so, exit 4.
  writeFileSync(
    join(box, "_bookkeeping/questions/broken-by-hand-0c0c0c.question.card"),
    "---\nstatus: pending\nprompt: [unclosed\n---\n",
  );
  execFileSync("git", ["-C", box, "commit", "-q", "-m", "a comment", "--", rel], {
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  });
});

describe("the short command lines", () => {
  it("are read in their plain forms only; help, other flags and odd forms go to the full CLI", () => {
    expect(shortCommand(["--version"])).toEqual({ name: "version" });
    expect(shortCommand(["show", "abcd", "--json", "--box=b"])).toEqual({
      name: "show",
      id: "abcd",
      options: { json: true, box: "b" },
    });
    expect(shortCommand(["wait", "abcd", "--timeout", "5", "--box", "b"])).toEqual({
      name: "wait",
      id: "abcd",
      options: { timeout: "5", box: "b" },
    });
    expect(shortCommand(["list", "--json"])).toEqual({ name: "list", options: { json: true } });
    expect(shortCommand(["ask", "--json"])).toEqual({ name: "ask", options: { json: true } });
    expect(shortCommand(["ask", "--unless-open", "--box", "b"])).toEqual({
      name: "ask",
      options: { unlessOpen: true, box: "b" },
    });
    for (const args of [
      [],
      ["--version", "show"],
      ["show"],
      ["show", "a", "b"],
      ["show", "abcd", "--help"],
      ["show", "abcd", "--timeout", "5"],
      ["show", "abcd", "--json", "--json"],
      ["show", "abcd", "--box"],
      ["show", "abcd", "--box", ""],
      ["show", "abcd", "--box", "--json"],
      ["show", "abcd", "--json=yes"],
      ["show", "abcd", "--"],
      ["show", ""],
      ["list", "--all"],
      ["list", "pending"],
      ["list", "--unless-open"],
      ["ask", "--prompt", "Keep it?"],
      ["ask", "--id", "keep-it"],
      ["ask", "--unless-open=yes"],
      ["ask", "--unless-open", "--unless-open"],
      ["ask", "keep-it"],
      ["ask", "--help"],
      ["--box", "b", "show", "abcd"],
      ["answer", "abcd", "yes"],
    ]) {
      expect(shortCommand(args), args.join(" ")).toBeUndefined();
    }
  });

  it("print, fail and exit exactly as the full CLI does, and run the lean bundle only", () => {
    const lines = [
      ["show", "keep-old-logs-4f2a91"],
      ["show", "keep-old-logs-4f2a91", "--json"],
      ["show", "4f2a91", "--json"], // the end of an id
      ["show", "keep-cach"], // the start of one
      ["show", "keep-old-logz-4f2a91"], // a slip: the error names the closest ids
      ["show", "keep"], // two ids begin so: the error lists them
      ["show", "../escape"],
      ["show", "why-so-slow-19ce02", "--json"],
      ["show", "edited-by-hand-5d0e6a", "--json"],
      ["wait", "edited-by-hand-5d0e6a", "--timeout", "0", "--json"],
      ["show", "broken-by-hand-0c0c0c"],
      ["wait", "0c0c0c", "--json"],
      ["wait", "keep-old-logs-4f2a91", "--json"],
      ["wait", "keep-old-logs-4f2a91"],
      ["wait", "keep-cache-77b0c3", "--timeout", "0"],
      ["wait", "keep-cache-77b0c3", "--timeout=0", "--json"],
      ["wait", "why-so-slow-19ce02", "--json"],
      ["wait", "keep-cache-77b0c3", "--timeout", "soon", "--json"],
      ["list"],
      ["list", "--json"],
    ].map((args) => [...args, "--box", box]);
    lines.push(["show", "keep-cache-77b0c3", "--box", join(work, "no-box-here")]);
    const codes = new Set<number | null>();
    for (const args of lines) {
      const short = run(args);
      codes.add(short.code);
      const full = run(args, true);
      const label = args.join(" ");
      expect(short.bundles, label).toEqual(["short.cjs"]);
      expect(full.bundles, label).toEqual(["cli.cjs"]);
      expect({ ...short, bundles: [] }, label).toEqual({ ...full, bundles: [] });
    }
    // The table reaches every way these commands end: answered, a usage error, not found, a
    // broken box or card, still pending, dismissed.
    expect([...codes].sort((a, b) => Number(a) - Number(b))).toEqual([0, 1, 2, 4, 10, 11]);
  });

  it("ask files, refuses and exits exactly as the full CLI does, in the lean bundle", () => {
    const lines: [string, string[], string][] = [
      ["a card", ["--json"], card("prune-tmp-0a1b2c")],
      ["as text", [], card("prune-tmp-0a1b2c")],
      [
        "one without an id",
        ["--json"],
        JSON.stringify({ ...JSON.parse(card("x")), id: undefined }),
      ],
      [
        "an open prompt",
        ["--json", "--unless-open"],
        card("keep-cache-77b0c3").replace('"id":"keep-cache-77b0c3"', '"id":"again-5e5e5e"'),
      ],
      ["an id taken", ["--json"], card("keep-cache-77b0c3")],
      ["not JSON", ["--json"], "{ prompt: Keep?"],
      ["nothing on stdin", ["--json"], ""],
      ["an invalid card", [], JSON.stringify({ prompt: "Keep?", input: { type: "select" } })],
      ["a path in the id", ["--json"], card("../escape")],
    ];
    const codes = new Set<number | null>();
    for (const [label, flags, input] of lines) {
      // Each in its own copy of the box: the first ask of a card would take its id.
      const ran = [false, true].map((full) => {
        const copy = mkdtempSync(join(work, "ask-"));
        cpSync(box, copy, { recursive: true });
        const result = run(["ask", ...flags, "--box", copy], full, input);
        const commits = execFileSync("git", ["-C", copy, "rev-list", "--count", "HEAD"], {
          encoding: "utf8",
        });
        const drop = (text: string) =>
          text
            .replaceAll(copy, "BOX")
            .replace(/-[0-9a-f]{6}"/g, '-RANDOM"')
            .replace(/-[0-9a-f]{6}$/m, "-RANDOM");
        return { ...result, stdout: drop(result.stdout), stderr: drop(result.stderr), commits };
      });
      const [short, full] = ran as [Run & { commits: string }, Run & { commits: string }];
      codes.add(short.code);
      expect(short.bundles, label).toEqual(["ask.cjs"]);
      expect(full.bundles, label).toEqual(["cli.cjs"]);
      expect({ ...short, bundles: [] }, label).toEqual({ ...full, bundles: [] });
    }
    expect([...codes].sort((a, b) => Number(a) - Number(b))).toEqual([0, 1]);
  });

  it("qbridge --version loads no bundle at all", () => {
    const version = run(["--version"]);
    const { version: built } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(version).toEqual({ code: 0, stdout: `${built}\n`, stderr: "", bundles: [] });
    const full = run(["--version"], true);
    expect(full.stdout).toBe(version.stdout);
  });
});
