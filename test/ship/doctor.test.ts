// Story: an operator runs `qbridge doctor --repair` on a box that has been through crashes,
// killed processes and hand edits. Each kind of damage is planted for real; repair fixes what
// is safe (and the box works again), and lists the rest with its fix.

import { execFileSync } from "node:child_process";
import {
  closeSync,
  mkdirSync,
  openSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { BRIDGES } from "../../src/cli/bridges.ts";
import { doctorChecks } from "../../src/cli/doctor-checks.ts";
import { loadConfig } from "../../src/config.ts";
import { AnswerMemoryStore } from "../../src/ledger/answer-memory.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import type { Core } from "../../src/questions/core.ts";
import { examineBox, type Finding, repairBox } from "../../src/questions/doctor/doctor.ts";
import { PresentationStore } from "../../src/slot/presentation/records.ts";
import { createHealthProbe, healthRoutes } from "../../src/web/health.ts";
import {
  boxFileExists,
  cleanupBoxes,
  cliEnv,
  gitStatus,
  jobRel,
  makeBox,
  pendingCardText,
  questionRel,
  runCli,
  selectCard,
  T0,
  type TestBox,
  writeCardFile,
} from "../support/box.ts";
import { TOKEN } from "../support/telegram.ts";
import { type BotApiStub, startBotApiStub } from "./bot-api-stub.ts";

afterAll(cleanupBoxes);
let stub: BotApiStub | undefined;
afterEach(async () => {
  await stub?.stop();
  stub = undefined;
});

const HOUR_AGO = "2026-07-10T08:00:00Z";
const LONG_AGO = new Date(Date.now() - 3_600_000);

async function doctor(
  core: Core & { dir: string },
  options: { repair?: boolean; env?: Record<string, string> } = {},
) {
  const config = loadConfig(
    { QBRIDGE_BOX: core.dir, QBRIDGE_TIME: T0, ...options.env },
    {},
    BRIDGES,
  );
  const facts: string[] = [];
  let findings = await examineBox(core, {
    checks: await doctorChecks(config),
    facts,
    sweepMinutes: config.sweepMinutes,
  });
  if (options.repair) findings = await repairBox(core, findings);
  return { findings, facts };
}

const kinds = (findings: Finding[]) => findings.map((f) => f.kind);

async function boxWithQuestion(): Promise<{ tb: TestBox; id: string }> {
  const tb = await makeBox();
  const { id } = await askQuestion(tb, selectCard());
  return { tb, id };
}

function presented(tb: TestBox, id: string, messageId: string | null): number {
  const store = new PresentationStore(tb.ledger.db);
  const seq = store.claim(id, "telegram", "hash", HOUR_AGO) as number;
  tb.ledger.db
    .prepare(
      "UPDATE presentations SET state = 'presented', chat_id = '1001', message_id = ?, presented_at = ? WHERE seq = ?",
    )
    .run(messageId, HOUR_AGO, seq);
  return seq;
}

describe("doctor --repair releases a presentation stuck in the slot", () => {
  it("a claim a dead process never sent is released and the slot is free", async () => {
    const { tb, id } = await boxWithQuestion();
    new PresentationStore(tb.ledger.db).claim(id, "telegram", "hash", HOUR_AGO);
    const { findings } = await doctor(tb, { repair: true });
    expect(findings).toMatchObject([{ kind: "stuck-presentation", repaired: true }]);
    expect(findings[0]?.problem).toContain("never sent");
    expect(new PresentationStore(tb.ledger.db).open()).toBeUndefined();
    expect((await doctor(tb)).findings).toEqual([]);
  });

  it("a presentation with no message is released", async () => {
    const { tb, id } = await boxWithQuestion();
    presented(tb, id, null);
    const { findings } = await doctor(tb, { repair: true });
    expect(findings).toMatchObject([{ kind: "stuck-presentation", repaired: true }]);
    expect(findings[0]?.problem).toContain("with no message");
    expect(new PresentationStore(tb.ledger.db).open()).toBeUndefined();
  });

  it("a presentation of a question answered meanwhile is closed with what happened", async () => {
    const { tb, id } = await boxWithQuestion();
    const seq = presented(tb, id, "77");
    await answerQuestion(tb, id, { text: "b" }, { via: "cli" });
    const { findings } = await doctor(tb, { repair: true });
    expect(findings).toMatchObject([{ kind: "stuck-presentation", repaired: true }]);
    expect(findings[0]?.problem).toContain("but is answered");
    const closed = new PresentationStore(tb.ledger.db).get(seq);
    expect(closed).toMatchObject({ state: "resolved", outcome: "answered via cli: Taxes" });
  });

  it("a question presented and still pending is not touched", async () => {
    const { tb, id } = await boxWithQuestion();
    presented(tb, id, "77");
    const { findings, facts } = await doctor(tb, { repair: true });
    expect(findings).toEqual([]);
    expect(facts).toContain(`slot: "${id}" presented on telegram`);
  });
});

describe("doctor --repair on git and lock damage", () => {
  it("a stale .git/index.lock is removed and commits work again", async () => {
    const { tb } = await boxWithQuestion();
    const lock = join(tb.dir, ".git/index.lock");
    writeFileSync(lock, "");
    utimesSync(lock, LONG_AGO, LONG_AGO);
    await expect(askQuestion(tb, selectCard({ prompt: "Blocked?" }))).rejects.toThrow();
    const { findings } = await doctor(tb, { repair: true });
    expect(kinds(findings)).toEqual(["index-lock"]);
    expect(findings[0]?.repaired).toBe(true);
    await askQuestion(tb, selectCard({ prompt: "Works again?" }));
    expect(await gitStatus(tb.dir)).toBe("");
  });

  it("an old HEAD.lock of someone else's git is named with the command that removes it, and repair removes it", async () => {
    const { tb } = await boxWithQuestion();
    const lock = join(tb.dir, ".git/HEAD.lock");
    writeFileSync(lock, "");
    utimesSync(lock, LONG_AGO, LONG_AGO);
    await expect(askQuestion(tb, selectCard({ prompt: "Blocked?" }))).rejects.toThrow(
      /git's HEAD is locked/,
    );
    const found = await doctor(tb);
    expect(found.findings).toEqual([
      expect.objectContaining({ kind: "git-lock", path: ".git/HEAD.lock", repairable: true }),
    ]);
    expect(found.findings[0]?.fix).toContain(`rm '${lock}'`);
    expect(found.findings[0]?.fix).toContain("safe only when no git command is running");
    const { findings } = await doctor(tb, { repair: true });
    expect(findings[0]?.repaired).toBe(true);
    await askQuestion(tb, selectCard({ prompt: "Works again?" }));
    expect(await gitStatus(tb.dir)).toBe("");
  });

  it("a question lock whose holder died is removed", async () => {
    const { tb, id } = await boxWithQuestion();
    const lock = join(tb.dir, `.qbridge/locks/${id}.lock`);
    mkdirSync(lock, { recursive: true });
    utimesSync(lock, LONG_AGO, LONG_AGO);
    const { findings } = await doctor(tb, { repair: true });
    expect(findings).toMatchObject([{ kind: "stale-lock", repaired: true }]);
    expect(boxFileExists(tb.dir, `.qbridge/locks/${id}.lock`)).toBe(false);
  });

  it("a lock released while doctor looks is no finding and no failure", async () => {
    const { tb } = await boxWithQuestion();
    // What doctor meets when a writer releases its lock between the listing and the look at
    // it: a name in the locks folder that no longer stats (a link to nothing does the same).
    mkdirSync(join(tb.dir, ".qbridge/locks"), { recursive: true });
    symlinkSync(join(tb.dir, "nowhere"), join(tb.dir, ".qbridge/locks/released.lock"));
    expect((await doctor(tb)).findings).toEqual([]);
    const run = await runCli(["doctor", "--json"], { env: cliEnv(tb.dir) });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });

  it("a missing git object is listed with its fix, not repaired", async () => {
    const { tb } = await boxWithQuestion();
    const blob = execFileSync("git", ["-C", tb.dir, "rev-parse", "HEAD:.gitignore"])
      .toString()
      .trim();
    rmSync(join(tb.dir, ".git/objects", blob.slice(0, 2), blob.slice(2)), { force: true });
    const { findings } = await doctor(tb, { repair: true });
    expect(kinds(findings)).toEqual(["git"]);
    expect(findings[0]).toMatchObject({ repairable: false });
    expect(findings[0]?.repaired).toBeUndefined();
    expect(findings[0]?.problem).toMatch(/git fsck finds the repository damaged: .*missing/);
    expect(findings[0]?.fix).toContain("fsck");
  });
});

describe("doctor --repair on interrupted and stray writes", () => {
  it("an answer killed between its writes is put back: the card stays pending, no job is left", async () => {
    // A short stale time: repair takes the dead writer's question lock once it is stale.
    const tb = await makeBox({ staleMs: 2_000 });
    const { id } = await askQuestion(tb, selectCard());
    const crashed = await runCli(["answer", id, "b"], {
      env: cliEnv(tb.dir, { QBRIDGE_TEST_CRASH_AT: "between-writes" }),
    });
    expect(crashed.code).toBe(128);
    const { findings } = await doctor(tb, { repair: true });
    expect(findings).toMatchObject([{ kind: "interrupted-write", repaired: true }]);
    expect(boxFileExists(tb.dir, jobRel(id))).toBe(false);
    expect(await gitStatus(tb.dir)).toBe("");
  });

  it("an uncommitted job for an unanswered question is removed; a staged file is unstaged and kept", async () => {
    const { tb, id } = await boxWithQuestion();
    writeFileSync(join(tb.dir, jobRel(id)), "---\nstray: true\n---\n");
    writeFileSync(join(tb.dir, "_bookkeeping/notes.md"), "by hand\n");
    execFileSync("git", ["-C", tb.dir, "add", "_bookkeeping/notes.md"]);
    const { findings } = await doctor(tb, { repair: true });
    expect(kinds(findings).sort()).toEqual(["dirty-index", "stray-job"]);
    expect(findings.every((f) => f.repaired)).toBe(true);
    expect(boxFileExists(tb.dir, jobRel(id))).toBe(false);
    expect(await gitStatus(tb.dir)).toBe("?? _bookkeeping/notes.md\n");
  });
});

describe("doctor lists what it must not repair", () => {
  it("an unreadable card is listed with its path and fix, and left byte for byte", async () => {
    const tb = await makeBox();
    const text = pendingCardText({ prompt: "Broken?" }).replace("status: pending", "status: [");
    writeCardFile(tb.dir, "broken", text);
    const { findings } = await doctor(tb, { repair: true });
    const unreadable = findings.filter((f) => f.kind === "unreadable-card");
    expect(unreadable).toMatchObject([{ path: questionRel("broken"), repairable: false }]);
    expect(unreadable[0]?.repaired).toBeUndefined();
  });

  it("a ledger that fails PRAGMA integrity_check is listed with the fix", async () => {
    const tb = await makeBox();
    const path = tb.ledger.path;
    const insert = tb.ledger.db.prepare(
      "INSERT INTO audit (at, surface, action, outcome, question_id) VALUES (?, 'test', 'x', 'y', ?)",
    );
    for (let i = 0; i < 2000; i++) insert.run(T0, `q-${i}`);
    tb.ledger.db.pragma("wal_checkpoint(TRUNCATE)");
    const { rootpage } = tb.ledger.db
      .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'audit_question'")
      .get() as { rootpage: number };
    const pageSize = tb.ledger.db.pragma("page_size", { simple: true }) as number;
    tb.ledger.close();
    const fd = openSync(path, "r+");
    writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (rootpage - 1) * pageSize);
    closeSync(fd);
    const ledger = new Ledger(path);
    try {
      const { findings } = await doctor({ dir: tb.dir, box: tb.box, ledger }, { repair: true });
      const damaged = findings.filter((f) => f.kind === "ledger");
      expect(damaged).toHaveLength(1);
      expect(damaged[0]?.problem).toMatch(/integrity check/);
      expect(damaged[0]?.fix).toContain("delete .qbridge/ledger.sqlite");
      expect(damaged[0]?.repaired).toBeUndefined();
    } finally {
      ledger.close();
    }
  });

  it("a ledger another process wrote to since this one read its answer memory is healthy, for doctor and /healthz", async () => {
    // FTS5 keeps the index's structure per connection: checked from the stale one, SQLite
    // reports a checksum mismatch that is not there.
    const tb = await makeBox();
    const memory = (ledger: Ledger) => ledger.store(AnswerMemoryStore);
    expect(memory(tb.ledger).candidates(["invoices"], 5)).toEqual([]);
    const other = new Ledger(tb.ledger.path);
    try {
      memory(other).remember([
        {
          questionId: "q-invoices",
          prompt: "Which folder takes the scanned invoices?",
          memo: "An invoice came in.",
          askedBy: undefined,
          inputType: "select",
          optionIds: ["finance"],
          answerText: "finance",
          selected: "finance",
          answeredAt: T0,
        },
      ]);
    } finally {
      other.close();
    }
    expect(tb.ledger.db.pragma("quick_check", { simple: true })).toMatch(/checksum mismatch/);
    expect(tb.ledger.integrity()).toBe("ok");
    expect(tb.ledger.quickCheck()).toBe("ok");
    expect((await doctor(tb)).findings).toEqual([]);
    const health = await healthRoutes(createHealthProbe(tb)).request("/healthz");
    expect((await health.json()).ledger).toEqual(expect.objectContaining({ readable: true }));
    expect(health.status).toBe(200);
  });

  it("an aging sweep that last ran two days ago is listed; a recent one is reported as fine", async () => {
    const tb = await makeBox();
    tb.ledger.setMeta("last-sweep", "2026-07-08T09:00:00Z");
    const stale = await doctor(tb, { repair: true });
    expect(stale.findings).toMatchObject([{ kind: "sweep", repairable: false }]);
    expect(stale.findings[0]?.problem).toContain("2026-07-08T09:00:00Z (2880 min ago)");
    tb.ledger.setMeta("last-sweep", "2026-07-10T08:55:00Z");
    const fresh = await doctor(tb);
    expect(fresh.findings).toEqual([]);
    expect(fresh.facts).toContain("aging sweep: last ran at 2026-07-10T08:55:00Z (5 min ago)");
  });
});

describe("doctor looks at the Telegram bot through TELEGRAM_API_ROOT", () => {
  it("a reachable bot with no webhook is reported as fine", async () => {
    stub = await startBotApiStub({});
    const tb = await makeBox();
    const { findings, facts } = await doctor(tb, {
      env: { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: stub.apiRoot },
    });
    expect(findings).toEqual([]);
    expect(facts).toContain("telegram: bot @questions_test_bot reachable");
    expect(facts).toContain("telegram: no webhook (long polling; 0 updates waiting)");
    expect(stub.calls).toEqual(["getMe", "getWebhookInfo"]);
  });

  it("a revoked token (getMe 401) is listed with the BotFather fix", async () => {
    stub = await startBotApiStub({
      getMe: { ok: false, error_code: 401, description: "Unauthorized" },
    });
    const tb = await makeBox();
    const { findings } = await doctor(tb, {
      repair: true,
      env: { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: stub.apiRoot },
    });
    expect(findings).toMatchObject([
      {
        kind: "telegram",
        problem:
          "Telegram refused TELEGRAM_BOT_TOKEN (401 Unauthorized): it was revoked or mistyped",
        repairable: false,
      },
    ]);
    expect(findings[0]?.fix).toContain("@BotFather");
  });

  it("a webhook set while this service long-polls, and a failing webhook, are listed", async () => {
    stub = await startBotApiStub({
      getWebhookInfo: {
        ok: true,
        result: {
          url: "https://other.example.org/hook",
          has_custom_certificate: false,
          pending_update_count: 3,
          last_error_date: 1783674000,
          last_error_message: "Wrong response from the webhook: 502 Bad Gateway",
        },
      },
    });
    const tb = await makeBox();
    const { findings } = await doctor(tb, {
      env: { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: stub.apiRoot },
    });
    expect(kinds(findings)).toEqual(["telegram", "telegram"]);
    expect(findings[0]?.problem).toContain(
      "a webhook is set (https://other.example.org/hook) while this service long-polls",
    );
    expect(findings[1]?.problem).toContain("502 Bad Gateway");
  });
});

describe("qbridge doctor as a command", () => {
  it("--repair --json on a box with damage of both sorts: exit 1, the safe fixes applied, the rest listed", async () => {
    const { tb, id } = await boxWithQuestion();
    new PresentationStore(tb.ledger.db).claim(id, "telegram", "hash", HOUR_AGO);
    writeCardFile(tb.dir, "broken", "not a card\n");
    execFileSync("git", ["-C", tb.dir, "add", questionRel("broken")]);
    const lock = join(tb.dir, ".git/index.lock");
    writeFileSync(lock, "");
    utimesSync(lock, LONG_AGO, LONG_AGO);
    const result = await runCli(["doctor", "--repair", "--json"], { env: cliEnv(tb.dir) });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { healthy: boolean; findings: Finding[] };
    expect(report.healthy).toBe(false);
    const byKind = Object.fromEntries(
      report.findings.map((f) => [`${f.kind}:${f.path}`, f.repaired ?? false]),
    );
    expect(byKind).toEqual({
      "index-lock:.git/index.lock": true,
      [`unreadable-card:${questionRel("broken")}`]: false,
      [`dirty-index:${questionRel("broken")}`]: true,
      "stuck-presentation:.qbridge/ledger.sqlite (presentation 1)": true,
    });
    expect(result.stderr).toBe("");
    const again = await runCli(["doctor"], { env: cliEnv(tb.dir) });
    expect(again.stdout).toContain(`problem: ${questionRel("broken")}`);
    expect(again.stdout).not.toContain("index.lock");
    expect(again.stdout).not.toContain("stuck");
  });

  it("shows progress on a terminal and none when piped", async () => {
    const tb = await makeBox();
    const piped = await runCli(["doctor"], { env: cliEnv(tb.dir) });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe("");
    expect(piped.stdout).toContain(": healthy");
    // `script` runs the command on a pseudo-terminal, so stderr is a TTY.
    const cli = join(import.meta.dirname, "../../bin/qbridge.cjs");
    const onTty = execFileSync(
      "script",
      ["-qec", `${process.execPath} ${cli} doctor --box ${tb.dir}`, "/dev/null"],
      { env: { ...process.env, QBRIDGE_TIME: T0 } },
    ).toString();
    expect(onTty).toMatch(/checking (\d+)\/\1\r?\n/);
    expect(onTty).toContain(": healthy");
  });
});
