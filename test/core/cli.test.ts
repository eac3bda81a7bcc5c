// Story: a person and their agents use the `qbridge` command on a box. They make the box,
// file questions by flags or as JSON, list and show them; broken cards are pointed out by
// `doctor` and never stop the good ones from listing; ids that try to leave the box are
// refused; every command explains itself.

import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Command, CommanderError } from "commander";
import { beforeAll, describe, expect, it } from "vitest";
import { BRIDGES } from "../../src/cli/bridges.ts";
import { COMMANDS as TABLE } from "../../src/cli/commands.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { LaterStore } from "../../src/slot/attention/later.ts";
import { PresentationStore } from "../../src/slot/presentation/records.ts";
import {
  cliEnv,
  confirmCard,
  gitLog,
  makeBox,
  pendingCardText,
  questionRel,
  readBoxFile,
  runCli,
  scratchDir,
  selectCard,
  T0,
  type TestBox,
  textCard,
  writeCardFile,
} from "../support/box.ts";

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

  it("three inits at once make one box with one commit, and each says what it found", async () => {
    const dir = join(scratchDir("qbridge-init-"), "box");
    const runs = await Promise.all([1, 2, 3].map(() => runCli(["init", "--box", dir])));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(runs.filter((r) => r.stdout.includes("made a git repository"))).toHaveLength(1);
    expect(
      runs.filter((r) => r.stdout === `${dir} is already a box; nothing to do\n`),
    ).toHaveLength(2);
    expect(await gitLog(dir)).toEqual(["qbridge init: question box"]);
  });

  it("refuses a --box that is a file, in one sentence, and leaves the file alone", async () => {
    const file = join(scratchDir("qbridge-init-"), "notes.txt");
    writeFileSync(file, "mine\n");
    const made = await runCli(["init", "--box", file]);
    expect(made.code).toBe(4);
    expect(made.stderr).toBe(
      `qbridge: ${file} is a file, not a folder: give --box a folder to make the box in (new or existing)\n`,
    );
    expect(readFileSync(file, "utf8")).toBe("mine\n");
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

  it("sets the field flags given beside a JSON card on it, the flag winning, never dropping one", async () => {
    const asked = await runCli(
      [
        "ask",
        "--json",
        "--priority",
        "high",
        "--id",
        "backups-now",
        "--asked-by",
        "cleaner",
        "--expires-after",
        "P1D",
        "--task",
        "T-9",
      ],
      {
        env: cliEnv(tb.dir),
        input: JSON.stringify(confirmCard({ prompt: "Delete them now?", priority: "low" })),
      },
    );
    expect(asked.stderr).toBe("");
    expect(JSON.parse(asked.stdout)).toMatchObject({
      id: "backups-now",
      card: {
        prompt: "Delete them now?",
        priority: "high",
        "asked-by": "cleaner",
        "expires-after": "P1D",
        tasks: ["T-9"],
      },
    });
  });

  it("takes --recommended as the label typed in --option (ids made from labels are not typed)", async () => {
    const asked = await runCli(
      [
        "ask",
        "--json",
        ...["--prompt", "Which office files the receipt?", "--memo", "A receipt came in."],
        ...["--directive", "File it there.", "--option", "Finance", "--option", "Tax office"],
        ...["--recommended", "tax office"],
      ],
      { env: cliEnv(tb.dir) },
    );
    expect(asked.stderr).toBe("");
    expect(JSON.parse(asked.stdout).card.recommended).toBe("tax-office");
  });

  it("files a learning from flags without --learning-ref, which is optional as in a card", async () => {
    const asked = await runCli(
      [
        "ask",
        "--json",
        ...["--prompt", "Which bank pays the rent?", "--memo", "A rent bill came in."],
        ...["--directive", "Pay it from there.", "--learning-sink", "guide"],
        ...["--proposal", "Rent is paid from the household account."],
      ],
      { env: cliEnv(tb.dir) },
    );
    expect(asked.stderr).toBe("");
    expect(JSON.parse(asked.stdout).card.learning).toEqual({
      sink: "guide",
      proposal: "Rent is paid from the household account.",
    });
  });

  it("takes a card with a byte-order mark, and refuses one that is not UTF-8 rather than change its text", async () => {
    const card = JSON.stringify(textCard({ prompt: "Who wrote the Übersicht?" }));
    const marked = await runCli(["ask", "--json"], { env: cliEnv(tb.dir), input: `\uFEFF${card}` });
    expect(marked.stderr).toBe("");
    expect(JSON.parse(marked.stdout).card.prompt).toBe("Who wrote the Übersicht?");

    const commits = await gitLog(tb.dir);
    // The Ü in Latin-1, as an old editor saves it: one byte 0xDC, not UTF-8.
    const latin1 = Buffer.from(card.replace("Übersicht", "Uebersicht-2"), "utf8");
    latin1[latin1.indexOf("Ue")] = 0xdc;
    const refused = await runCli(["ask"], { env: cliEnv(tb.dir), input: latin1 });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "qbridge: standard input is not UTF-8 text: send the card as UTF-8 JSON\n",
    );
    expect(await gitLog(tb.dir)).toEqual(commits);
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
    // A deadline no Date holds: before, it failed list, waiting, age and doctor as a whole.
    endless: pendingCardText({ ...selectCard(), "expires-after": "P99999999Y" }),
    // The text form of a time no Date holds: it failed them likewise.
    "no-such-time": pendingCardText({ ...selectCard(), "asked-at": "2026-07-10T09:00:00+99:00" }),
    // A good card under a name no command can give as an id: listed, it could not be answered.
    "my question": pendingCardText(selectCard({ prompt: "Named by hand?" })),
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
    expect(listed.stderr).toBe(`8 card(s) cannot be read and were skipped: run "qbridge doctor"\n`);
  });

  it("lists as JSON: the pending questions with their cards, and the unreadable ones with reasons", async () => {
    const listed = await runCli(["list", "--json"], { env: cliEnv(tb.dir) });
    expect(listed.code).toBe(0);
    const { pending, unreadable } = JSON.parse(listed.stdout);
    expect(pending.map((q: { id: string }) => q.id)).toEqual([good[1], good[0]]);
    expect(pending[1]).toMatchObject({ rel: questionRel(good[0] as string), card: selectCard() });
    expect(unreadable.map((u: { rel: string }) => u.rel).sort()).toEqual(
      [
        "bad-yaml",
        "contradictory",
        "endless",
        "escape",
        "my question",
        "no-such-time",
        "oversize",
        "wrong-types",
      ].map(questionRel),
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
      [questionRel("endless")]: "expires-after: must be at most 100 years (P100Y)",
      [questionRel("no-such-time")]: expect.stringMatching(/^asked-at: must be a real time/),
      [questionRel("my question")]: expect.stringMatching(/^its name is not a question id/),
    });
  });

  it("never follows the symlink: show refuses it and does not print the file outside the box", async () => {
    const shown = await runCli(["show", "escape"], { env: cliEnv(tb.dir) });
    // The link is in the box: the box needs fixing, not the call.
    expect(shown.code).toBe(4);
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

describe("ids as a person types them", () => {
  let tb: TestBox;
  const RECEIPTS = "2026-07-10-where-do-receipts-go-3fa2c1";
  const BACKUPS = "2026-07-10-delete-old-backups-91bc07";
  const BACKUPS_TOO = "2026-07-10-delete-old-backups-91bd00";
  beforeAll(async () => {
    tb = await makeBox();
    await askQuestion(tb, selectCard({ id: RECEIPTS }));
    await askQuestion(tb, confirmCard({ id: BACKUPS }));
    await askQuestion(tb, confirmCard({ id: BACKUPS_TOO, prompt: "Delete the other backups?" }));
  });

  it("show takes a unique prefix of the id", async () => {
    const shown = await runCli(["show", "2026-07-10-where"], { env: cliEnv(tb.dir) });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`id:       ${RECEIPTS}`);
  });

  it("answer and dismiss take the 6-character suffix, and name the full id", async () => {
    const answered = await runCli(["answer", "91bc07", "yes"], { env: cliEnv(tb.dir) });
    expect(answered.stderr).toBe("");
    expect(answered.stdout).toContain(`answered ${BACKUPS}: Yes`);
    expect(loadQuestion(tb, BACKUPS).card.status).toBe("answered");
    const dismissed = await runCli(["dismiss", "91bd00"], { env: cliEnv(tb.dir) });
    expect(dismissed.stdout).toBe(`dismissed ${BACKUPS_TOO}\n`);
  });

  it("refuses a prefix that fits several questions and lists them (exit 1)", async () => {
    const shown = await runCli(["show", "2026-07-10-delete"], { env: cliEnv(tb.dir) });
    expect(shown.code).toBe(1);
    expect(shown.stderr).toBe(
      `qbridge: "2026-07-10-delete" matches 2 questions (${BACKUPS}, ${BACKUPS_TOO}): give more of the id\n`,
    );
  });

  it("names the closest ids for an id with a slip in it (exit 2)", async () => {
    const shown = await runCli(["show", "2026-07-10-where-do-reciepts-go-3fa2c1"], {
      env: cliEnv(tb.dir),
    });
    expect(shown.code).toBe(2);
    expect(shown.stderr).toBe(
      `qbridge: no question "2026-07-10-where-do-reciepts-go-3fa2c1" in this box; the closest: ${RECEIPTS}: run "qbridge list --all" to see the ids\n`,
    );
  });

  it("takes no part of an id under 4 characters: swapped words do not answer the question they match by chance", async () => {
    const commits = await gitLog(tb.dir);
    // Only BACKUPS_TOO (dismissed above, still answerable) ends in "0": taken as an id, "0"
    // would record "yes" there.
    const answered = await runCli(["answer", "0", "yes"], { env: cliEnv(tb.dir) });
    expect(answered.code).toBe(1);
    expect(answered.stderr).toBe(
      'qbridge: "0" is too short to stand for a question id: give its start or its end, 4 characters at least, or the whole id\n',
    );
    expect(await gitLog(tb.dir)).toEqual(commits);
    expect(loadQuestion(tb, BACKUPS_TOO).card.status).toBe("dismissed");
  });
});

describe("list in the slot's order", () => {
  it("puts parked questions behind the queue, in the order they were parked, and marks them; waiting's top is the first of that order", async () => {
    const tb = await makeBox();
    const high = await askQuestion(tb, selectCard({ priority: "high", id: "q-high" }));
    await askQuestion(tb, confirmCard({ id: "q-medium" }));
    await askQuestion(tb, textCard({ priority: "low", id: "q-low" }));
    new PresentationStore(tb.ledger.db).park(high.id, T0);

    const listed = await runCli(["list"], { env: cliEnv(tb.dir) });
    const lines = listed.stdout.trim().split("\n");
    expect(lines.map((line) => line.split("  ")[0])).toEqual(["q-medium", "q-low", "q-high"]);
    expect(lines[2]).toMatch(/\(parked\)$/);

    const json = await runCli(["list", "--json"], { env: cliEnv(tb.dir) });
    const parsed = JSON.parse(json.stdout) as { pending: { id: string }[]; parked: string[] };
    expect(parsed.pending.map((q) => q.id)).toEqual(["q-medium", "q-low", "q-high"]);
    expect(parsed.parked).toEqual(["q-high"]);

    const waiting = await runCli(["waiting", "--json"], { env: cliEnv(tb.dir) });
    expect(JSON.parse(waiting.stdout)).toMatchObject({ count: 3, top: { id: "q-medium" } });
  });

  it("waiting answers as the chat does: no question past its deadline, the presented one on top, none put off", async () => {
    const tb = await makeBox();
    await askQuestion(tb, confirmCard({ id: "q-past", priority: "high", "expires-after": "PT1H" }));
    await askQuestion(tb, selectCard({ id: "q-put-off", priority: "high" }));
    await askQuestion(tb, confirmCard({ id: "q-medium", prompt: "Keep the old logs?" }));
    await askQuestion(tb, textCard({ id: "q-shown", priority: "low" }));
    const twoHoursOn = "2026-07-10T11:00:00Z";
    new LaterStore(tb.ledger.db).put("q-put-off", new Date("2026-07-10T19:00:00Z"), T0);
    const presentations = new PresentationStore(tb.ledger.db);
    const seq = presentations.claim("q-shown", "telegram", "hash", T0) as number;
    presentations.presented(seq, { chatId: "1", messageId: "2" }, T0);
    const env = cliEnv(tb.dir, { QBRIDGE_TIME: twoHoursOn });

    const shown = await runCli(["waiting", "--json"], { env });
    expect(JSON.parse(shown.stdout)).toMatchObject({ count: 3, top: { id: "q-shown" } });
    const text = await runCli(["waiting"], { env });
    expect(text.stdout.split("\n")[0]).toBe("3 waiting. Top:");
    expect(text.stderr).toBe(
      'note: 1 past its deadline and not counted: "qbridge age" (or a running serve) expires it\n',
    );

    presentations.close(seq, "resolved", "answered elsewhere", twoHoursOn);
    const next = await runCli(["waiting", "--json"], { env });
    expect(JSON.parse(next.stdout)).toMatchObject({ count: 3, top: { id: "q-medium" } });
  });
});

describe("errors a person can act on", () => {
  it("ask names every missing flag as it is typed, with what it is for", async () => {
    const tb = await makeBox();
    const asked = await runCli(["ask", "--prompt", "Where do receipts go?"], {
      env: cliEnv(tb.dir),
    });
    expect(asked.code).toBe(1);
    expect(asked.stderr).toBe(
      'qbridge: ask needs --memo TEXT (why you ask) and --directive TEXT (what the answer unblocks): run "qbridge help ask" for every flag\n',
    );
    expect(asked.stderr).not.toContain("Required");
  });

  it.each([
    [
      ["list", "--bogus"],
      `qbridge: unknown option '--bogus': run "qbridge help list" for its options`,
    ],
    [["show"], `qbridge: missing required argument 'id': run "qbridge help show" for its options`],
    [
      ["lsit"],
      `qbridge: unknown command 'lsit' (Did you mean list?): run "qbridge help" for the commands`,
    ],
    [
      ["hook", "bogus"],
      `qbridge: unknown command 'bogus': run "qbridge help hook" for the commands`,
    ],
  ])(
    "commander's own error for `qbridge %s` is one line with the qbridge: prefix and the help to read",
    async (args, line) => {
      const result = await runCli(args);
      expect(result).toEqual({ code: 1, stdout: "", stderr: `${line}\n` });
    },
  );

  it("an empty --box (an unset variable) is refused, never taken for ./box", async () => {
    // A box at ./box is there to be picked by mistake.
    const cwd = scratchDir("qbridge-empty-box-");
    expect((await runCli(["init", "--box", join(cwd, "box")])).code).toBe(0);
    const asked = await runCli(
      ["ask", "--box", "", "--prompt", "Which box?", "--memo", "m", "--directive", "d"],
      { cwd },
    );
    expect(asked).toEqual({
      code: 1,
      stdout: "",
      stderr:
        'qbridge: --box is empty (an unset variable in --box "$VAR"?): give the box directory\n',
    });
    expect(await gitLog(join(cwd, "box"))).toEqual(["qbridge init: question box"]);
  });

  it("with --json, commander's own error is also the JSON error on stdout, as every other error", async () => {
    const result = await runCli(["wait", "--json"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      error: {
        code: "InvalidInput",
        message: `missing required argument 'id': run "qbridge help wait" for its options`,
      },
    });
    expect(result.stderr).toBe(
      `qbridge: missing required argument 'id': run "qbridge help wait" for its options\n`,
    );
  });
});

describe("demo", () => {
  it("says when it made a box, and not when the box was there", async () => {
    const dir = join(scratchDir("qbridge-demo-"), "box");
    const first = await runCli(["demo", "--box", dir]);
    expect(first.code).toBe(0);
    expect(first.stdout.split("\n")[0]).toBe(
      `made a box at ${dir}: made a git repository, made _bookkeeping/questions/, made _bookkeeping/jobs/, ignored .qbridge/ in .gitignore, committed the layout`,
    );
    const again = await runCli(["demo", "--box", dir]);
    expect(again.stdout).not.toContain("made a box");
    expect(again.stdout.match(/^already open /gm)).toHaveLength(3);
  });

  it("refuses to make a folder with other files in it a box, unless told with --init", async () => {
    const dir = scratchDir("qbridge-demo-");
    writeFileSync(join(dir, "notes.txt"), "mine\n");
    const refused = await runCli(["demo", "--box", dir]);
    expect(refused.stderr).toBe(
      `qbridge: ${dir} is not empty and is not a box: run "qbridge demo --init" to make it one (a git repository with _bookkeeping/questions/), or point --box at another folder\n`,
    );
    expect(refused.code).not.toBe(0);
    expect(existsSync(join(dir, ".git"))).toBe(false);

    const made = await runCli(["demo", "--box", dir, "--init"]);
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^made a box at /);
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("mine\n");
  });
});

describe("pair", () => {
  it("prints the expiry in local time and warns that no bot token is set", async () => {
    const tb = await makeBox();
    const paired = await runCli(["pair"], {
      env: { ...cliEnv(tb.dir), TZ: "Europe/Zurich", TELEGRAM_BOT_TOKEN: "" },
    });
    expect(paired.code).toBe(0);
    // T0 is 09:00 UTC: 11:00 in Zurich in July, and the code lasts 10 minutes.
    expect(paired.stdout).toMatch(
      /^Send "\/start [A-Z0-9-]+" to your bot in a private chat; valid until 11:10, 10 minutes\. It works once\.$/m,
    );
    expect(paired.stderr).toContain("TELEGRAM_BOT_TOKEN is not set here");
  });

  it("does not warn when the bot token is set", async () => {
    const tb = await makeBox();
    const paired = await runCli(["pair"], {
      env: {
        ...cliEnv(tb.dir),
        TZ: "UTC",
        TELEGRAM_BOT_TOKEN: "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ",
      },
    });
    expect(paired.stdout).toContain("valid until 09:10, 10 minutes");
    expect(paired.stderr).toBe("");
  });

  it("makes a code for the surface it names, and refuses one no bridge runs, naming those there are", async () => {
    const tb = await makeBox();
    const made = await runCli(["pair", "--surface", "telegram", "--json"], { env: cliEnv(tb.dir) });
    expect(JSON.parse(made.stdout)).toMatchObject({ surface: "telegram", replace: false });
    const unknown = await runCli(["pair", "--surface", "slack"], { env: cliEnv(tb.dir) });
    expect({ code: unknown.code, stderr: unknown.stderr }).toEqual({
      code: 1,
      stderr:
        'qbridge: there is no bridge "slack" to pair on: --surface takes one of email, telegram\n',
    });
  });
});

describe("help", () => {
  const COMMANDS = [
    "init",
    "job-done",
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

  /**
   * What `qbridge help NAME` prints, from the command's line of the command table, in this
   * process. The command itself must print the same: the test of `NAME --help` below runs it.
   */
  async function helpOf(name: string): Promise<string> {
    const entry = TABLE.find((c) => c.name === name);
    if (!entry) throw new Error(`no command ${name} in the command table`);
    let out = "";
    const program = new Command("qbridge").exitOverride().configureOutput({
      writeOut: (text) => {
        out += text;
      },
    });
    (await entry.register())(program);
    const shown = await program.parseAsync(["help", name], { from: "user" }).catch((e) => e);
    expect(shown).toBeInstanceOf(CommanderError);
    expect((shown as CommanderError).exitCode).toBe(0);
    return out;
  }

  it("serve and doctor describe each listed bridge's settings and check from the bridge list", async () => {
    const [serve, doctor] = await Promise.all([helpOf("serve"), helpOf("doctor")]);
    const flat = (text: string) => text.replace(/\n {2}/g, " ");
    for (const bridge of BRIDGES) {
      expect(flat(serve)).toContain(`- ${bridge.help.settings}`);
      expect(flat(doctor)).toContain(`- ${bridge.help.doctor}`);
    }
  });

  it("explains every command with `help <command>`; each takes --box, and --json unless it is a conversation", async () => {
    const top = await runCli(["--help"]);
    const all = [...top.stdout.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)]
      .map((m) => m[1] as string)
      .filter((c) => c !== "help");
    expect(all).toEqual(expect.arrayContaining(COMMANDS));
    expect(all.sort()).toEqual(TABLE.map((c) => c.name).sort());
    const withoutJson: string[] = [];
    for (const command of all) {
      const help = await helpOf(command);
      expect(help).toMatch(new RegExp(`^Usage: qbridge ${command}\\b`));
      expect(help).toContain("--box <dir>");
      if (!help.includes("--json")) withoutJson.push(command);
    }
    // The README says these two take no --json: a conversation on the terminal, and MCP's own.
    expect(withoutJson.sort()).toEqual(["chat", "mcp"]);
  });

  it("a subcommand's usage error names a help command that prints that subcommand's options", async () => {
    const refused = await runCli(["hook", "install", "--bogus"]);
    const advice = /run "qbridge ([^"]+)" for its options/.exec(refused.stderr)?.[1];
    expect(advice).toBe("help hook install");
    const [byHelp, byFlag] = await Promise.all([
      runCli((advice as string).split(" ")),
      runCli(["hook", "install", "--help"]),
    ]);
    expect(byHelp.code).toBe(0);
    expect(byHelp.stdout).toMatch(/^Usage: qbridge hook install \[options\]/);
    expect(byHelp.stdout).toContain("--copilot");
    expect(byHelp.stdout).toBe(byFlag.stdout);
  });

  it.each([
    [["help", "lsit"], `unknown command 'lsit': run "qbridge help" for the commands`],
    [
      ["help", "hook", "bogus"],
      `unknown command 'hook bogus': run "qbridge help hook" for the commands`,
    ],
  ])("`qbridge %s` names the command that is none, in one line", async (args, sentence) => {
    const result = await runCli(args);
    expect(result).toEqual({ code: 1, stdout: "", stderr: `qbridge: ${sentence}\n` });
  });

  it("a help request never runs the command it names, whatever words follow", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, confirmCard());
    const result = await runCli(["help", "answer", id, "yes"], { env: cliEnv(tb.dir) });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: qbridge answer \[options\] <id> <answer>/);
    expect(loadQuestion(tb, id).card.status).toBe("pending");
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
      expect(byHelp.stdout).toBe(await helpOf(command));
    }
  });
});
