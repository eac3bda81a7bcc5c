// Story: the ledger records what the surfaces did (nudge latches, the verbatim-answer audit)
// beside the box. It is never the truth about a question: a corrupt ledger is set aside and a
// fresh one made, a ledger that cannot write costs an audit line, and answers go on working.

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { Ledger } from "../../src/ledger/ledger.ts";
import { MIGRATIONS } from "../../src/ledger/migrations.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import {
  cleanupBoxes,
  cliEnv,
  confirmCard,
  makeBox,
  runCli,
  selectCard,
  T0,
} from "../support/box.ts";

afterEach(cleanupBoxes);

const GARBAGE = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));

describe("the ledger file", () => {
  it("runs in WAL mode with every migration applied, counted in user_version", async () => {
    const tb = await makeBox();
    expect(tb.ledger.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(tb.ledger.db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    const tables = tb.ledger.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .pluck()
      .all();
    expect(tables).toEqual(expect.arrayContaining(["nudges", "audit", "card_index", "meta"]));
  });

  it("migrates an older ledger forward from its user_version, keeping its rows", async () => {
    const tb = await makeBox();
    const path = join(tb.dir, ".qbridge/old.sqlite");
    const old = new Database(path);
    old.exec(MIGRATIONS[0] as string);
    old.pragma("user_version = 1");
    old.prepare("INSERT INTO nudges VALUES ('q1', ?, 'sent')").run(T0);
    old.close();
    const ledger = new Ledger(path);
    expect(ledger.db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    expect(ledger.nudgedAt("q1")).toBe(T0);
    ledger.close();
  });

  it("refuses a ledger written by a newer qbridge instead of guessing at its schema", async () => {
    const tb = await makeBox();
    const path = join(tb.dir, ".qbridge/newer.sqlite");
    const newer = new Database(path);
    newer.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    newer.close();
    expect(() => new Ledger(path)).toThrow(/written by a newer qbridge/);
  });

  it("sets a corrupt ledger aside and starts a fresh one", async () => {
    const tb = await makeBox();
    const path = join(tb.dir, ".qbridge/garbage.sqlite");
    writeFileSync(path, GARBAGE);
    const ledger = new Ledger(path);
    expect(ledger.setAside).toMatch(/garbage\.sqlite\.corrupt-\d+$/);
    expect(readFileSync(ledger.setAside as string)).toEqual(GARBAGE);
    expect(ledger.db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    expect(ledger.integrity()).toBe("ok");
    ledger.close();
  });
});

describe("answers do not depend on the ledger", () => {
  it("answers through the CLI after the box's ledger was overwritten with garbage", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, confirmCard());
    tb.ledger.close();
    const ledgerPath = join(tb.dir, ".qbridge/ledger.sqlite");
    for (const side of ["-wal", "-shm"]) expect(existsSync(ledgerPath + side)).toBe(false);
    writeFileSync(ledgerPath, GARBAGE);

    const answered = await runCli(["answer", id, "yes", "--note", "older than 2024"], {
      env: cliEnv(tb.dir),
    });
    // Only the notice that the damaged ledger was set aside (test/ship/ledger-set-aside.test.ts).
    expect(answered.stderr).toMatch(/^qbridge: the ledger .* could not be read .*\n$/);
    expect(answered.code).toBe(0);
    const fresh = new Ledger(ledgerPath);
    expect(fresh.auditFor(id)).toEqual([
      expect.objectContaining({ action: "answer", outcome: "applied", resolvedTo: "yes: Yes" }),
    ]);
    fresh.close();
    const setAside = readdirSync(join(tb.dir, ".qbridge")).filter((n) => n.includes(".corrupt-"));
    expect(setAside).toHaveLength(1);
    const listed = await runCli(["list", "--all", "--json"], { env: cliEnv(tb.dir) });
    expect(JSON.parse(listed.stdout).archive[0].card.answer).toEqual({
      text: "Yes",
      selected: "yes",
      note: "older than 2024",
    });
  });

  it("commits an answer even when the ledger cannot record its audit line", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard());
    tb.ledger.db.exec("DROP TABLE audit");
    await answerQuestion(tb, id, { text: "a" }, { via: "cli" });
    expect(loadQuestion(tb, id).card.status).toBe("answered");
  });

  it("says so in a log line when the ledger loses an audit line, and still commits the answer", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard());
    const lines: { fields: { err: unknown }; message: string }[] = [];
    tb.ledger.faultLog = (fields, message) => lines.push({ fields, message });
    tb.ledger.db.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON audit BEGIN SELECT RAISE(FAIL, 'the disk said no'); END",
    );
    await answerQuestion(tb, id, { text: "a" }, { via: "cli" });
    expect(loadQuestion(tb, id).card.status).toBe("answered");
    expect(lines).toEqual([
      {
        fields: { err: expect.objectContaining({ message: "the disk said no" }) },
        message: `the ledger lost the audit line of "answer" on ${id}; the box's commit holds the change, only the ledger's record of it is missing`,
      },
    ]);
  });
});

describe("the audit", () => {
  it("records the verbatim answer, the surface, who, what it resolved to and the outcome", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard());
    await answerQuestion(tb, id, { text: "B", note: "2026 only" }, { via: "telegram", by: "42" });
    await answerQuestion(tb, id, { text: "a" }, { via: "web" }).catch(() => undefined);
    const [ask, applied, refused] = tb.ledger.auditFor(id);
    expect(ask).toMatchObject({ action: "ask", outcome: "applied" });
    expect(applied).toMatchObject({
      at: T0,
      surface: "telegram",
      actor: "42",
      action: "answer",
      verbatim: "B | 2026 only",
      resolvedTo: "taxes: Taxes",
      outcome: "applied",
    });
    expect(refused).toMatchObject({
      surface: "web",
      verbatim: "a",
      outcome: "TransitionRejected",
      detail: expect.stringContaining("it is already answered"),
    });
  });
});
