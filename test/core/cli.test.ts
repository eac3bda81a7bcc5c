// Story: a person and their agents use the `qbridge` command on a box. They make the box,
// file questions by flags or as JSON, list and show them; broken cards are pointed out by
// `doctor` and never stop the good ones from listing; ids that try to leave the box are
// refused; every command explains itself.

import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import {
  cleanupBoxes,
  cliEnv,
  confirmCard,
  gitLog,
  makeBox,
  pendingCardText,
  questionRel,
  readBoxFile,
  runCli,
  selectCard,
  type TestBox,
  textCard,
  writeCardFile,
} from "../support/box.ts";

const scratch: string[] = [];
function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

afterAll(() => {
  cleanupBoxes();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe("init", () => {
  it("makes a box, and running it again is harmless", async () => {
    const dir = join(scratchDir("qbridge-init-"), "box");
    const first = await runCli(["init", "--box", dir]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("made a git repository");
    const commits = await gitLog(dir);
    expect(commits).toEqual(["qbridge init: question box"]);

    const second = await runCli(["init", "--box", dir]);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(`${dir} is already a box; nothing to do\n`);
    expect(await gitLog(dir)).toEqual(commits);
    const ignored = readFileSync(join(dir, ".gitignore"), "utf8").split("\n");
    expect(ignored.filter((line) => line === ".qbridge/")).toHaveLength(1);
  });
});

describe("ask", () => {
  let tb: TestBox;
  beforeAll(async () => {
    tb = await makeBox();
  });

  it("files a question from flags and commits it", async () => {
    const asked = await runCli(
      [
        "ask",
        "--prompt",
        "Where do receipts go?",
        "--memo",
        "A receipt arrived at intake.",
        "--option",
        "finance=Finance",
        "--option",
        "Tax office",
        "--directive",
        "Move the receipt there.",
        "--priority",
        "high",
        "--expires-after",
        "P2D",
        "--id",
        "receipts",
      ],
      { env: cliEnv(tb.dir) },
    );
    expect(asked.stderr).toBe("");
    expect(asked.code).toBe(0);
    expect(asked.stdout).toBe("asked receipts\n");
    const shown = await runCli(["show", "receipts", "--json"], { env: cliEnv(tb.dir) });
    expect(JSON.parse(shown.stdout).card).toMatchObject({
      status: "pending",
      prompt: "Where do receipts go?",
      input: {
        type: "select",
        options: [
          { id: "finance", label: "Finance" },
          { id: "tax-office", label: "Tax office" },
        ],
      },
      priority: "high",
      "expires-after": "P2D",
      "asked-at": "2026-07-10T09:00:00Z",
    });
    expect((await gitLog(tb.dir))[0]).toBe("ask: Where do receipts go?");
  });

  it("files a JSON card from standard input and, with --json, prints it with its id", async () => {
    const asked = await runCli(["ask", "--json"], {
      env: cliEnv(tb.dir),
      input: JSON.stringify(confirmCard()),
    });
    expect(asked.code).toBe(0);
    const printed = JSON.parse(asked.stdout);
    expect(printed.id).toMatch(/^2026-07-10-may-i-delete-backups-older-than-a-year-[0-9a-f]{6}$/);
    expect(printed.deduplicated).toBe(false);
    expect(printed.card).toMatchObject({ status: "pending", ...confirmCard() });
    expect(readBoxFile(tb.dir, questionRel(printed.id))).toContain(
      "prompt: May I delete backups older than a year?",
    );
  });

  it("refuses an invalid question with the reason and files nothing", async () => {
    const commits = await gitLog(tb.dir);
    const asked = await runCli(["ask"], {
      env: cliEnv(tb.dir),
      input: JSON.stringify(selectCard({ input: { type: "select", options: [] } })),
    });
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain("a select question needs at least 2 options");
    expect(await gitLog(tb.dir)).toEqual(commits);
  });

  it("with --unless-open, files nothing when an open question has the same prompt", async () => {
    const card = textCard({ prompt: "Who is +41 79 000 00 01?" });
    const first = await runCli(["ask", "--json", "--unless-open"], {
      env: cliEnv(tb.dir),
      input: JSON.stringify(card),
    });
    const { id } = JSON.parse(first.stdout);
    const commits = await gitLog(tb.dir);

    const again = await runCli(["ask", "--unless-open"], {
      env: cliEnv(tb.dir),
      input: JSON.stringify({ ...card, prompt: "  who is +41 79 000 00 01? " }),
    });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`already open: ${id}\n`);
    expect(await gitLog(tb.dir)).toEqual(commits);

    // Once answered it is no longer open, so the same prompt is filed anew.
    expect((await runCli(["answer", id, "Anna"], { env: cliEnv(tb.dir) })).code).toBe(0);
    const later = await runCli(["ask", "--json", "--unless-open"], {
      env: cliEnv(tb.dir),
      input: JSON.stringify(card),
    });
    expect(JSON.parse(later.stdout)).toMatchObject({ deduplicated: false });
    expect(JSON.parse(later.stdout).id).not.toBe(id);
  });
});

describe("list, show and doctor on a box with broken cards", () => {
  let tb: TestBox;
  let good: string[];
  let outside: string;
  const broken = {
    "bad-yaml": "---\nstatus: pending\nprompt: [unclosed\n---\n",
    "wrong-types": pendingCardText({ ...selectCard(), prompt: 42, irreversible: "yes" }),
    contradictory: pendingCardText({ ...selectCard(), "dismissed-at": "2026-07-11T09:00:00Z" }),
    oversize: pendingCardText(selectCard(), `${"x".repeat(300 * 1024)}\n`),
  };

  beforeAll(async () => {
    tb = await makeBox();
    good = [
      (await askQuestion(tb, selectCard())).id,
      (await askQuestion(tb, confirmCard({ priority: "high" }))).id,
    ];
    for (const [id, text] of Object.entries(broken)) writeCardFile(tb.dir, id, text);
    outside = join(scratchDir("qbridge-outside-"), "secret.question.card");
    writeFileSync(outside, pendingCardText(textCard()));
    symlinkSync(outside, join(tb.dir, questionRel("escape")));
  });

  it("lists the good cards in slot order and warns that the others were skipped", async () => {
    const listed = await runCli(["list"], { env: cliEnv(tb.dir) });
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split("\n");
    expect(lines.map((line) => line.split("  ")[0])).toEqual([good[1], good[0]]);
    expect(lines[0]).toContain("[high]  May I delete backups older than a year?");
    expect(listed.stderr).toBe(`5 card(s) cannot be read and were skipped: run "qbridge doctor"\n`);
  });

  it("lists as JSON: the pending questions with their cards, and the unreadable ones with reasons", async () => {
    const listed = await runCli(["list", "--json"], { env: cliEnv(tb.dir) });
    expect(listed.code).toBe(0);
    const { pending, unreadable } = JSON.parse(listed.stdout);
    expect(pending.map((q: { id: string }) => q.id)).toEqual([good[1], good[0]]);
    expect(pending[1]).toMatchObject({ rel: questionRel(good[0] as string), card: selectCard() });
    expect(unreadable.map((u: { rel: string }) => u.rel).sort()).toEqual(
      ["bad-yaml", "contradictory", "escape", "oversize", "wrong-types"].map(questionRel),
    );
  });

  it("reports every broken card in doctor with its reason and exits 1", async () => {
    const checked = await runCli(["doctor", "--json"], { env: cliEnv(tb.dir) });
    expect(checked.code).toBe(1);
    const unreadable = Object.fromEntries(
      JSON.parse(checked.stdout)
        .findings.filter((f: { kind: string }) => f.kind === "unreadable-card")
        .map((f: { path: string; problem: string }) => [f.path, f.problem]),
    );
    expect(unreadable).toEqual({
      [questionRel("bad-yaml")]: expect.stringContaining("its YAML does not parse"),
      [questionRel("wrong-types")]: expect.stringMatching(/prompt: .*irreversible: /),
      [questionRel("contradictory")]: 'dismissed-at: a pending card must not carry "dismissed-at"',
      [questionRel("oversize")]: expect.stringContaining("over the 262144-byte card limit"),
      [questionRel("escape")]: expect.stringContaining("it is a symbolic link"),
    });
  });

  it("never follows the symlink: show refuses it and does not print the file outside the box", async () => {
    const shown = await runCli(["show", "escape"], { env: cliEnv(tb.dir) });
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain("it is a symbolic link");
    expect(shown.stdout).toBe("");
  });

  it("shows a good card with its options by letter", async () => {
    const shown = await runCli(["show", good[0] as string], { env: cliEnv(tb.dir) });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("Where do photographed receipts belong?");
    expect(shown.stdout).toContain("  a) Finance\n  b) Taxes\n  c) Somewhere else\n");
    expect(shown.stdout).toContain("The box will learn: Receipts go in finance/receipts/.");
  });

  it("exits 2 for an id that is not in the box", async () => {
    const shown = await runCli(["show", "no-such-question"], { env: cliEnv(tb.dir) });
    expect(shown.code).toBe(2);
    expect(shown.stderr).toBe(
      'qbridge: no question "no-such-question" in this box: run "qbridge list --all" to see the ids\n',
    );
  });

  it.each([
    ["show", "../etc/passwd"],
    ["show", "a/b"],
    ["answer", "../../outside", "yes"],
    ["dismiss", "a/b"],
  ])("refuses the path-trick id in `%s %s` with exit 1", async (command, id, ...rest) => {
    const result = await runCli([command, id, ...rest], { env: cliEnv(tb.dir) });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `qbridge: "${id}" is not a question id: ids use letters, digits, '.', '_' and '-' only, no '..' and no path separators\n`,
    );
  });
});

describe("help", () => {
  const COMMANDS = [
    "init",
    "ask",
    "list",
    "show",
    "answer",
    "dismiss",
    "age",
    "waiting",
    "jobs",
    "doctor",
  ];

  it("lists every command in the top-level help", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    for (const command of COMMANDS)
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, "m"));
  });

  it("explains every command with `help <command>`", async () => {
    const results = await Promise.all(COMMANDS.map((command) => runCli(["help", command])));
    results.forEach((result, i) => {
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^Usage: qbridge ${COMMANDS[i]}\\b`));
      expect(result.stdout).toContain("--box <dir>");
    });
  });

  it("prints the same help, examples included, for `<command> --help`", async () => {
    for (const command of ["ask", "answer"]) {
      const [byHelp, byFlag] = await Promise.all([
        runCli(["help", command]),
        runCli([command, "--help"]),
      ]);
      expect(byFlag.code).toBe(0);
      expect(byFlag.stdout).toContain("Examples:");
      expect(byFlag.stdout).toBe(byHelp.stdout);
    }
  });
});
