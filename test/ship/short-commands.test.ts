// Story: an agent runs `qbridge ask`, `show`, `wait` and `list` as processes many times a day and
// acts on their exit codes. Each way these commands end has its own code: answered, a usage
// error, not found, a broken box or card, still pending, dismissed; an ask that is refused
// files nothing. `qbridge --version` prints the package's version and nothing else; text beyond
// ASCII prints as it is.

import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS, commandsFor } from "../../src/cli/commands.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { dismissQuestion } from "../../src/questions/close.ts";
import { CLI, cleanupBoxes, commitByHand, makeBox, ROOT, T0 } from "../support/box.ts";

const work = mkdtempSync(join(tmpdir(), "qbridge-short-"));
/** The box the commands read (beforeAll). */
let box = "";
afterAll(() => {
  cleanupBoxes();
  rmSync(work, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], input = ""): Run {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: work,
    input,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: work, QBRIDGE_TIME: T0 },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const card = (id: string, type = "confirm") =>
  JSON.stringify({
    id,
    prompt: `Keep ${id}?`,
    memo: "The disk is 90% full.",
    input: { type },
    directive: "Delete it or keep it.",
  });

// The questions the commands below read, filed and closed as `qbridge ask`, `answer` and
// `dismiss` file and close them (these tests are about the commands that read them).
beforeAll(async () => {
  const core = await makeBox();
  box = core.dir;
  await askQuestion(core, JSON.parse(card("keep-old-logs-4f2a91")));
  await answerQuestion(core, "keep-old-logs-4f2a91", { text: "yes" }, { via: "cli" });
  await askQuestion(core, JSON.parse(card("keep-cache-77b0c3")));
  await askQuestion(core, JSON.parse(card("why-so-slow-19ce02", "text")));
  await dismissQuestion(core, "why-so-slow-19ce02", { via: "cli" });
  // A card edited by hand with a comment.
  await askQuestion(core, JSON.parse(card("edited-by-hand-5d0e6a")));
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
  await commitByHand(box, [rel], "a comment");
});

describe("the short command lines", () => {
  it("end with the exit code of their case: answered, usage, not found, broken, pending, dismissed", () => {
    const lines: [string[], number][] = [
      [["show", "keep-old-logs-4f2a91"], 0],
      [["show", "keep-old-logs-4f2a91", "--json"], 0],
      [["show", "4f2a91", "--json"], 0], // the end of an id
      [["show", "keep-cach"], 0], // the start of one
      [["show", "keep-old-logz-4f2a91"], 2], // a slip: the error names the closest ids
      [["show", "keep"], 1], // two ids begin so: the error lists them
      [["show", "../escape"], 1],
      [["show", "why-so-slow-19ce02", "--json"], 0],
      [["show", "edited-by-hand-5d0e6a", "--json"], 0],
      [["wait", "edited-by-hand-5d0e6a", "--timeout", "0", "--json"], 10],
      [["show", "broken-by-hand-0c0c0c"], 4],
      [["wait", "0c0c0c", "--json"], 4],
      [["wait", "keep-old-logs-4f2a91", "--json"], 0],
      [["wait", "keep-old-logs-4f2a91"], 0],
      [["wait", "keep-cache-77b0c3", "--timeout", "0"], 10],
      [["wait", "keep-cache-77b0c3", "--timeout=0", "--json"], 10],
      [["wait", "why-so-slow-19ce02", "--json"], 11],
      [["wait", "keep-cache-77b0c3", "--timeout", "soon", "--json"], 1],
      [["list"], 0],
      [["list", "--json"], 0],
    ];
    for (const [args, code] of lines) {
      const label = args.join(" ");
      expect(run([...args, "--box", box]).code, label).toBe(code);
    }
    expect(run(["show", "keep-cache-77b0c3", "--box", join(work, "no-box-here")]).code).toBe(4);
  });

  it("ask files a card with exit 0, and refuses with exit 1 filing nothing", () => {
    const lines: [string, string[], string, { code: number; files: boolean }][] = [
      ["a card", ["--json"], card("prune-tmp-0a1b2c"), { code: 0, files: true }],
      ["as text", [], card("prune-tmp-0a1b2c"), { code: 0, files: true }],
      [
        "one without an id",
        ["--json"],
        JSON.stringify({ ...JSON.parse(card("x")), id: undefined }),
        { code: 0, files: true },
      ],
      [
        "an open prompt",
        ["--json", "--unless-open"],
        card("keep-cache-77b0c3").replace('"id":"keep-cache-77b0c3"', '"id":"again-5e5e5e"'),
        { code: 0, files: false },
      ],
      ["an id taken", ["--json"], card("keep-cache-77b0c3"), { code: 1, files: false }],
      ["not JSON", ["--json"], "{ prompt: Keep?", { code: 1, files: false }],
      ["nothing on stdin", ["--json"], "", { code: 1, files: false }],
      [
        "an invalid card",
        [],
        JSON.stringify({ prompt: "Keep?", input: { type: "select" } }),
        { code: 1, files: false },
      ],
      ["a path in the id", ["--json"], card("../escape"), { code: 1, files: false }],
    ];
    const commits = (dir: string) =>
      Number(execFileSync("git", ["-C", dir, "rev-list", "--count", "HEAD"], { encoding: "utf8" }));
    const before = commits(box);
    for (const [label, flags, input, expected] of lines) {
      // Each in its own copy of the box: the first ask of a card would take its id.
      const copy = mkdtempSync(join(work, "ask-"));
      cpSync(box, copy, { recursive: true });
      const result = run(["ask", ...flags, "--box", copy], input);
      expect({ code: result.code, files: commits(copy) > before }, label).toEqual(expected);
    }
  });

  it("qbridge --version prints the package's version and nothing else", () => {
    const { version: built } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(run(["--version"])).toEqual({ code: 0, stdout: `${built}\n`, stderr: "" });
    expect(run(["-V"])).toEqual({ code: 0, stdout: `${built}\n`, stderr: "" });
  });
});

describe("text beyond ASCII", () => {
  it("prints the characters the sources write beyond ASCII, and the card's own, as they are", () => {
    const typographic = join(work, "typographic-box");
    const inBox = (args: string[], input = "") => run([...args, "--box", typographic], input);
    inBox(["init"]);
    inBox(
      ["ask", "--json"],
      JSON.stringify({
        id: "keep-cafe-logs",
        prompt: "Keep the café’s logs?",
        memo: "They are 2 GB.",
        input: { type: "confirm" },
        directive: "Delete them or keep them.",
      }),
    );
    inBox(["answer", "keep-cafe-logs", "yes"]);
    // render.ts writes "→" before an answer; the card's own text comes through as it was.
    expect(inBox(["list", "--all"]).stdout).toContain("Keep the café’s logs?  → Yes");
  });
});

describe("the command table", () => {
  it("each line registers exactly the command it names; a command line loads only its own", async () => {
    for (const entry of COMMANDS) {
      const program = new Command("qbridge");
      (await entry.register())(program);
      expect(program.commands.map((c) => c.name())).toEqual([entry.name]);
    }
    expect(commandsFor(["--version"])).toEqual([]);
    expect(commandsFor(["show", "x", "--json"]).map((c) => c.name)).toEqual(["show"]);
    expect(commandsFor(["help", "answer"]).map((c) => c.name)).toEqual(["answer"]);
    expect(commandsFor(["help", "hook", "install"]).map((c) => c.name)).toEqual(["hook"]);
    expect(commandsFor(["help"])).toBe(COMMANDS);
  });
});
