// An agent reads one typed outcome wherever it looks (the API, `qbridge show --json`,
// `qbridge wait`), and waiting for it wakes on the transition, never reporting a timeout as an
// answer or a refusal.

import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dropJournal, writeJournal } from "../../src/box/journal.ts";
import { rewriteCardText } from "../../src/card/codec.ts";
import { QuestionNotFound } from "../../src/errors.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { dismissQuestion, expireQuestion } from "../../src/questions/close.ts";
import { QuestionOutcomeSchema, questionOutcome } from "../../src/questions/outcome.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { withQuestionLock } from "../../src/questions/transition.ts";
import { waitForOutcome } from "../../src/questions/waiter.ts";
import {
  atTime,
  cleanupBoxes,
  cliEnv,
  confirmCard,
  makeBox,
  questionRel,
  runCli,
  selectCard,
} from "../support/box.ts";
import { webFixture } from "../web/web-support.ts";

afterEach(cleanupBoxes);

const LATER = "2026-07-10T09:10:00Z";

describe("the outcome of a question", () => {
  it("says pending with how long it has waited, and no answer", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, selectCard());
    const outcome = questionOutcome(loadQuestion(box, id), { now: new Date(LATER) });
    expect(outcome).toEqual({
      id,
      status: "pending",
      askedAt: "2026-07-10T09:00:00Z",
      waitedSeconds: 600,
      late: false,
    });
    expect(QuestionOutcomeSchema.parse(outcome)).toEqual(outcome);
  });

  it("carries the answer, who gave it, where, when, and the follow-up job", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, selectCard());
    await answerQuestion(atTime(box, LATER), id, { text: "b" }, { via: "api", by: "ada" });
    const outcome = questionOutcome(loadQuestion(box, id), {
      now: new Date("2027-01-01T00:00:00Z"),
    });
    expect(outcome).toEqual({
      id,
      status: "answered",
      answer: { text: "Taxes", selected: "taxes" },
      answeredVia: "api",
      answeredBy: "ada",
      askedAt: "2026-07-10T09:00:00Z",
      answeredAt: LATER,
      waitedSeconds: 600,
      late: false,
      jobRel: `_bookkeeping/jobs/${id}.question-followup.job.card`,
    });
  });

  it("marks an answer given after a dismissal or an expiry as late", async () => {
    const box = await makeBox();
    const dismissed = (await askQuestion(box, confirmCard())).id;
    const expired = (await askQuestion(box, selectCard())).id;
    await dismissQuestion(box, dismissed, { via: "cli" });
    await expireQuestion(box, expired);
    const still = questionOutcome(loadQuestion(box, dismissed), { now: new Date(LATER) });
    expect(still).toMatchObject({ status: "dismissed", late: false, waitedSeconds: 600 });
    expect(still.answer).toBeUndefined();
    await answerQuestion(box, dismissed, { text: "yes" }, { via: "cli" });
    await answerQuestion(box, expired, { text: "a" }, { via: "cli" });
    for (const id of [dismissed, expired]) {
      expect(questionOutcome(loadQuestion(box, id), { now: new Date(LATER) }).late).toBe(true);
    }
  });
});

describe("the outcome through the API and the CLI", () => {
  it("GET /api/v1/questions/:id keeps id, rel and card and adds the outcome's fields", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const res = await web.app.request(`/api/v1/questions/${id}`, { headers: web.auth() });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.rel).toBe(`_bookkeeping/questions/${id}.question.card`);
    expect(body.card.prompt).toBe("Where do photographed receipts belong?");
    const { rel: _rel, card: _card, ...outcome } = body;
    expect(QuestionOutcomeSchema.strict().parse(outcome)).toEqual({
      id,
      status: "pending",
      askedAt: "2026-07-10T09:00:00Z",
      waitedSeconds: 0,
      late: false,
    });
  });

  it("qbridge show --json prints the outcome with a fresh signed link when a public URL is set", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, selectCard());
    const result = await runCli(["show", id, "--json"], {
      env: cliEnv(box.dir, { QBRIDGE_PUBLIC_URL: "https://q.example.org" }),
    });
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body).toMatchObject({ id, status: "pending", late: false, card: { status: "pending" } });
    expect(body.link).toMatch(new RegExp(`^https://q\\.example\\.org/q/${id}\\?s=[0-9a-z]+\\.`));
  });
});

describe("waiting for the outcome", () => {
  it("a long poll returns answered as soon as the answer is committed, not when the wait ends", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const poll = web.app.request(`/api/v1/questions/${id}?wait=55`, { headers: web.auth() });
    // The answer lands while the poll waits; a poll that did not wake would come back pending.
    setTimeout(() => void answerQuestion(web.box, id, { text: "a" }, { via: "web" }), 50);
    const body = await (await poll).json();
    expect(body).toMatchObject({ id, status: "answered", answer: { text: "Finance" } });
    expect(body.card.status).toBe("answered");
  });

  it("refuses a wait that is not a number of seconds with a 400", async () => {
    const web = await webFixture();
    const id = await web.ask(selectCard());
    const res = await web.app.request(`/api/v1/questions/${id}?wait=soon`, {
      headers: web.auth(),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toContain("wait must be a whole number of seconds");
  });

  it("a wait that ends unanswered returns pending, never an error", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, selectCard());
    const outcome = await waitForOutcome(box, id, 0.2);
    expect(outcome.status).toBe("pending");
  });

  it("a card written but rolled back while the wait runs is not reported", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, confirmCard());
    const waiting = waitForOutcome(box, id, 1);
    const loaded = loadQuestion(box, id);
    const path = join(box.dir, loaded.rel);
    // As a transition that fails does: under the lock, its journal, the card flipped on disk,
    // then put back and the journal dropped.
    await withQuestionLock(box, id, async () => {
      const after = rewriteCardText(loaded.text, { status: "dismissed", "dismissed-at": LATER });
      writeJournal(box.box, { key: id, files: [{ rel: loaded.rel, before: loaded.text, after }] });
      writeFileSync(path, after);
      await new Promise((r) => setTimeout(r, 300));
      writeFileSync(path, loaded.text);
      dropJournal(box.box, id);
    });
    expect((await waiting).status).toBe("pending");
  });

  it("a wait longer than a timer holds (35 days) still waits, and wakes on the answer", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, confirmCard());
    // Before, node fired a timer this long after 1 ms: the wait came back pending at once.
    const waiting = waitForOutcome(box, id, 35 * 86_400);
    setTimeout(() => void answerQuestion(box, id, { text: "yes" }, { via: "cli" }), 300);
    expect((await waiting).status).toBe("answered");
  });

  it("a wait with no limit ends with no such question when the card is removed meanwhile", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, confirmCard());
    // No limit: before, a removed card was waited for for good.
    const waiting = waitForOutcome(box, id, Number.POSITIVE_INFINITY);
    setTimeout(() => rmSync(join(box.dir, questionRel(id))), 200);
    await expect(waiting).rejects.toThrow(QuestionNotFound);
  });

  it("qbridge wait wakes on an answer another process commits, and exits 0 with the outcome", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, selectCard());
    const waiting = runCli(["wait", id, "--timeout", "50", "--json"], { env: cliEnv(box.dir) });
    // The child is waiting once its watches are set; answering before that is caught too.
    setTimeout(() => void answerQuestion(box, id, { text: "taxes" }, { via: "telegram" }), 400);
    const result = await waiting;
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      id,
      status: "answered",
      answeredVia: "telegram",
      answer: { selected: "taxes" },
    });
  });

  it("qbridge wait exits 10 when still pending, 11 dismissed, 12 expired, 2 for no such question", async () => {
    const box = await makeBox();
    const pending = (await askQuestion(box, selectCard())).id;
    const dismissed = (await askQuestion(box, confirmCard())).id;
    const expired = (await askQuestion(box, confirmCard({ prompt: "Another?" }))).id;
    await dismissQuestion(box, dismissed, { via: "cli" });
    await expireQuestion(box, expired);
    const env = cliEnv(box.dir);
    const still = await runCli(["wait", pending, "--timeout", "0", "--json"], { env });
    expect(still.code).toBe(10);
    expect(JSON.parse(still.stdout).status).toBe("pending");
    expect((await runCli(["wait", dismissed], { env })).code).toBe(11);
    expect((await runCli(["wait", expired], { env })).code).toBe(12);
    expect((await runCli(["wait", "no-such-question"], { env })).code).toBe(2);
  });

  it("qbridge wait on a dismissed question ends at once, and its help never says to wait again", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, confirmCard());
    await dismissQuestion(box, id, { via: "cli" });
    const env = cliEnv(box.dir);
    const started = Date.now();
    expect((await runCli(["wait", id, "--timeout", "30"], { env })).code).toBe(11);
    expect(Date.now() - started).toBeLessThan(20_000);
    // So a script told to "wait again" on 11 or 12 would spin; the help says how to hear of a
    // late answer instead.
    const help = await runCli(["wait", "--help"], { env });
    expect(help.stdout).not.toContain("wait again");
    expect(help.stdout).toContain("qbridge show");
  });

  it("qbridge wait that times out says how long it waited and, apart, how old the question is", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, selectCard());
    // Asked five minutes before the wait; the wait itself lasts 0 s.
    const env = cliEnv(box.dir, { QBRIDGE_TIME: "2026-07-10T09:05:00Z" });
    const still = await runCli(["wait", id, "--timeout", "0"], { env });
    expect(still.code).toBe(10);
    expect(still.stdout).toBe(
      `${id}: still pending after waiting 0 s (asked 5 min ago); the question stays open\n`,
    );
    // The JSON keeps its shape: waitedSeconds is the question's age (docs/AGENTS.md).
    const json = await runCli(["wait", id, "--timeout", "0", "--json"], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ status: "pending", waitedSeconds: 300 });
  });
});
