// Story: someone who has never seen the project runs it from an empty directory with nothing
// but the README's commands and environment: `npm start` (qbridge serve), an agent's
// `qbridge ask`, and `qbridge chat` at the keyboard. The answer ends up committed in git. Then
// the README's whole first-run path: `npm start`, `qbridge demo`, `qbridge chat`, quit, chat
// again, then Telegram (on the emulator).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleGit } from "simple-git";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, eventually, OWNER, startEmulator, TOKEN } from "../support/telegram.ts";
import { freshDir, qbridge, qbridgeRun, removeFreshDirs } from "./ship-support.ts";

afterEach(removeFreshDirs);

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator.stop();
});

// The README's environment is no environment at all; only the port is left to the system so
// that tests running side by side do not collide on 8787.
const ENV = { QBRIDGE_WEB_PORT: "0" };
// The demo files its three questions one after another; a frozen clock gives them one asked-at,
// so the slot's order (oldest first, then by id) does not depend on a second ticking between.
const DEMO_ENV = { ...ENV, QBRIDGE_TIME: "2026-07-10T09:00:00Z" };

describe("first run from a fresh directory", () => {
  it("serve makes ./box and says what it started; ask files a question; chat answers it; git has the answered card and its job", async () => {
    const cwd = freshDir();
    const serve = qbridge(["serve"], { cwd, env: ENV });
    try {
      await serve.waitFor("aging sweep every", 30_000, "stderr");
      const said = serve.stderr();
      expect(said).toContain(`new box ${join(cwd, "box")}`);
      expect(said).toContain(
        `box ${join(cwd, "box")} (ledger ${join(cwd, "box/.qbridge/ledger.sqlite")})`,
      );
      expect(said).toContain("telegram off (set TELEGRAM_BOT_TOKEN to turn it on)");
      expect(said).toMatch(/web page http:\/\/127\.0\.0\.1:\d+/);

      const asked = await qbridgeRun(
        [
          "ask",
          "--prompt",
          "Where do receipts go?",
          "--memo",
          "A receipt arrived at intake.",
          "--option",
          "finance=Finance",
          "--option",
          "taxes=Taxes",
          "--directive",
          "Move the receipt there.",
        ],
        { cwd, env: ENV },
      );
      expect(asked.code).toBe(0);
      const id = /^asked (\S+)$/m.exec(asked.stdout)?.[1] as string;
      expect(id).toBeDefined();

      const chat = qbridge(["chat"], { cwd, env: ENV });
      await chat.waitFor("? Where do receipts go?");
      expect(chat.stdout()).toContain("  b) Taxes");
      chat.type("b - only the paper ones");
      await chat.waitFor("Recorded: Taxes (note: only the paper ones)");
      chat.type("quit");
      expect(await chat.exited).toBe(0);

      const box = join(cwd, "box");
      const git = simpleGit(box);
      const subject = (await git.raw(["log", "-1", "--format=%s"])).trim();
      expect(subject).toBe("answer: Where do receipts go?");
      const files = (await git.raw(["show", "--name-only", "--format=", "HEAD"]))
        .trim()
        .split("\n");
      const cardRel = `_bookkeeping/questions/${id}.question.card`;
      const jobRel = `_bookkeeping/jobs/${id}.question-followup.job.card`;
      expect(files.sort()).toEqual([jobRel, cardRel].sort());
      const card = await git.raw(["show", `HEAD:${cardRel}`]);
      expect(card).toContain("status: answered");
      expect(card).toContain("answered-via: terminal");
      expect(card).toMatch(/text: Taxes/);
      const job = readFileSync(join(box, jobRel), "utf8");
      expect(job).toContain(`question-id: ${id}`);
      expect(job).toMatch(/text: Taxes/);
      expect((await git.raw(["status", "--porcelain"])).trim()).toBe("");
    } finally {
      expect(await serve.kill("SIGTERM")).toBe(0);
    }
  });

  it("qbridge demo files one select, one confirm and one text question, and chat answers all three in turn", async () => {
    const cwd = freshDir();
    const demo = await qbridgeRun(["demo", "--json"], { cwd, env: ENV });
    expect(demo.code).toBe(0);
    const filed = JSON.parse(demo.stdout) as { questions: { id: string; type: string }[] };
    expect(filed.questions.map((q) => q.type).sort()).toEqual(["confirm", "select", "text"]);
    const again = await qbridgeRun(["demo"], { cwd, env: ENV });
    expect(again.stdout.match(/^already open /gm)).toHaveLength(3);

    // Chat shows them in the order `list` prints (the slot's order: priority, expiry, the
    // oldest first, which on a real clock may or may not be the same second).
    const listed = await qbridgeRun(["list", "--json"], { cwd, env: ENV });
    const order = (JSON.parse(listed.stdout) as { pending: { card: { prompt: string } }[] })
      .pending;
    const replies: Record<string, [string, string]> = {
      "May I delete backups older than a year?": [
        "no - keep the last three",
        "Recorded: No (note: keep the last three)",
      ],
      "What should the new contact at +41 79 000 00 00 be called?": [
        "Ada Lovelace",
        "Recorded: Ada Lovelace",
      ],
      "Where should photographed receipts go?": ["a", "Recorded: Finance"],
    };
    const chat = qbridge(["chat"], { cwd, env: ENV });
    for (const { card } of order) {
      const [reply, recorded] = replies[card.prompt] as [string, string];
      await chat.waitFor(`? ${card.prompt}`);
      chat.type(reply);
      await chat.waitFor(recorded);
    }
    chat.type("waiting");
    await chat.waitFor("Nothing is waiting on you.");
    chat.endInput();
    expect(await chat.exited).toBe(0);

    const jobs = await qbridgeRun(["jobs", "--json"], { cwd, env: ENV });
    const answers = (JSON.parse(jobs.stdout) as { job: { answer: { text: string } } }[])
      .map((j) => j.job.answer.text)
      .sort();
    expect(answers).toEqual(["Ada Lovelace", "Finance", "No"]);
  });

  it("the README's first run: npm start, demo, chat, quit; chat again shows the open question; serve with Telegram then sends the next one", async () => {
    const cwd = freshDir();
    // `npm start` is `qbridge serve` in the checkout; here in a fresh directory, as a user's.
    const serve = qbridge(["serve"], { cwd, env: DEMO_ENV });
    await serve.waitFor("aging sweep every", 30_000, "stderr");
    expect((await qbridgeRun(["demo"], { cwd, env: DEMO_ENV })).code).toBe(0);

    const first = qbridge(["chat"], { cwd, env: DEMO_ENV });
    await first.waitFor("? May I delete backups older than a year?");
    first.type("quit");
    expect(await first.exited).toBe(0);

    // The question the first chat left open is shown again, and answers as shown.
    const again = qbridge(["chat"], { cwd, env: DEMO_ENV });
    await again.waitFor("? May I delete backups older than a year?");
    again.type("no - keep the last three");
    await again.waitFor("Recorded: No (note: keep the last three)");
    await again.waitFor("? What should the new contact at +41 79 000 00 00 be called?");
    again.type("quit");
    expect(await again.exited).toBe(0);
    expect(await serve.kill("SIGTERM")).toBe(0);

    // Telegram on: the question the chat left open reaches the phone at once.
    const telegram = qbridge(["serve"], {
      cwd,
      env: {
        ...DEMO_ENV,
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_OWNER_ID: String(OWNER),
        TELEGRAM_API_ROOT: emulator.apiRoot,
      },
    });
    try {
      const client = emulator.server.getClient(TOKEN, { userId: OWNER, chatId: OWNER });
      const shown = await eventually(
        async () => {
          const history = (await client.getUpdatesHistory()) as { message?: { text?: string } }[];
          return history.find((u) => u.message?.text?.includes("What should the new contact"));
        },
        20_000,
        "the open question to reach Telegram",
      );
      expect(shown).toBeDefined();
    } finally {
      expect(await telegram.kill("SIGTERM")).toBe(0);
    }
  });
});
