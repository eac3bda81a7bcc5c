// Story: a question moves through pending, answered, dismissed and expired, and the guarded
// transition allows only the moves DESIGN.md names. A refused move names the current status and
// changes nothing: no file, no commit.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TransitionRejected } from "../../src/errors.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { dismissQuestion, expireQuestion } from "../../src/questions/close.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import {
  atTime,
  boxFileExists,
  cleanupBoxes,
  gitLog,
  jobRel,
  makeBox,
  questionRel,
  readBoxFile,
  selectCard,
  type TestBox,
} from "../support/box.ts";

let tb: TestBox;

beforeAll(async () => {
  tb = await makeBox();
});
afterAll(cleanupBoxes);

const cli = { via: "cli" };
const LATER = "2026-07-12T10:30:00Z";

async function pending(): Promise<string> {
  return (await askQuestion(tb, selectCard())).id;
}

async function inStatus(status: "pending" | "answered" | "dismissed" | "expired") {
  const id = await pending();
  if (status === "answered") await answerQuestion(tb, id, { text: "a" }, cli);
  if (status === "dismissed") await dismissQuestion(tb, id, cli);
  if (status === "expired") await expireQuestion(tb, id);
  return id;
}

/** Runs a refused move and checks it changed nothing and names the current status. */
async function expectRejected(id: string, move: () => Promise<unknown>, current: string) {
  const card = readBoxFile(tb.dir, questionRel(id));
  const job = boxFileExists(tb.dir, jobRel(id)) ? readBoxFile(tb.dir, jobRel(id)) : null;
  const commits = (await gitLog(tb.dir)).length;
  const error = await move().catch((e) => e);
  expect(error).toBeInstanceOf(TransitionRejected);
  expect((error as TransitionRejected).current).toBe(current);
  expect((error as Error).message).toContain(`it is already ${current}`);
  expect(readBoxFile(tb.dir, questionRel(id))).toBe(card);
  expect(boxFileExists(tb.dir, jobRel(id)) ? readBoxFile(tb.dir, jobRel(id)) : null).toBe(job);
  expect(await gitLog(tb.dir)).toHaveLength(commits);
}

describe("answering", () => {
  it("answers a pending question", async () => {
    const id = await pending();
    await answerQuestion(tb, id, { text: "b" }, cli);
    const card = loadQuestion(tb, id).card;
    expect(card.status).toBe("answered");
    expect(card["answered-via"]).toBe("cli");
  });

  it("answers a dismissed question and drops its dismissed-at", async () => {
    const id = await inStatus("dismissed");
    expect(loadQuestion(tb, id).card["dismissed-at"]).toBeDefined();
    await answerQuestion(atTime(tb, LATER), id, { text: "b" }, cli);
    const card = loadQuestion(tb, id).card;
    expect(card.status).toBe("answered");
    expect(card["answered-at"]).toBe(LATER);
    expect(card["dismissed-at"]).toBeUndefined();
    expect(readBoxFile(tb.dir, questionRel(id))).not.toContain("dismissed-at");
  });

  it("answers an expired question and drops its expired-at", async () => {
    const id = await inStatus("expired");
    await answerQuestion(atTime(tb, LATER), id, { text: "b" }, cli);
    const card = loadQuestion(tb, id).card;
    expect(card.status).toBe("answered");
    expect(card["expired-at"]).toBeUndefined();
    expect(readBoxFile(tb.dir, questionRel(id))).not.toContain("expired-at");
  });

  it("treats an answer as final: a second answer is rejected naming the first", async () => {
    const id = await inStatus("answered");
    await expectRejected(id, () => answerQuestion(tb, id, { text: "b" }, cli), "answered");
    const error = await answerQuestion(tb, id, { text: "b" }, cli).catch((e) => e);
    expect(error.message).toContain('answered "Finance" via cli');
  });
});

describe("dismissing and expiring happen only from pending", () => {
  it("dismisses a pending question, writing dismissed-at and no job", async () => {
    const id = await pending();
    await dismissQuestion(atTime(tb, LATER), id, cli);
    const card = loadQuestion(tb, id).card;
    expect(card.status).toBe("dismissed");
    expect(card["dismissed-at"]).toBe(LATER);
    expect(boxFileExists(tb.dir, jobRel(id))).toBe(false);
  });

  it("expires a pending question, writing expired-at and no job", async () => {
    const id = await pending();
    await expireQuestion(atTime(tb, LATER), id);
    const card = loadQuestion(tb, id).card;
    expect(card.status).toBe("expired");
    expect(card["expired-at"]).toBe(LATER);
    expect(boxFileExists(tb.dir, jobRel(id))).toBe(false);
  });

  it.each([["answered"], ["dismissed"], ["expired"]] as const)(
    "refuses to dismiss a question that is %s",
    async (status) => {
      const id = await inStatus(status);
      await expectRejected(id, () => dismissQuestion(tb, id, cli), status);
    },
  );

  it.each([["answered"], ["dismissed"], ["expired"]] as const)(
    "refuses to expire a question that is %s",
    async (status) => {
      const id = await inStatus(status);
      await expectRejected(id, () => expireQuestion(tb, id), status);
    },
  );
});
