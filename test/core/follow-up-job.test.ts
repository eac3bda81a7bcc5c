// Story: an answer is only useful if the agent acts on it. Each answer writes a follow-up job
// (what to do, with which answer, what to learn) and commits it together with the answered card
// in ONE commit; the job is written first, so a card is never answered without its job.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCardText } from "../../src/card/codec.ts";
import { JobSchema } from "../../src/card/job.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import {
  boxFileExists,
  cleanupBoxes,
  cliEnv,
  confirmCard,
  gitLog,
  jobRel,
  lastCommitMessage,
  lastCommitTrailers,
  makeBox,
  questionRel,
  readBoxFile,
  runCli,
  selectCard,
  T0,
  type TestBox,
  textCard,
} from "../support/box.ts";

let tb: TestBox;

beforeAll(async () => {
  tb = await makeBox();
});
afterAll(cleanupBoxes);

function readJob(id: string) {
  const { data, tail } = parseCardText(readBoxFile(tb.dir, jobRel(id)));
  return { job: JobSchema.parse(data), body: tail };
}

describe("the follow-up job", () => {
  it("carries the question ref, the directive, the answer and the learning as declared", async () => {
    const { id } = await askQuestion(tb, selectCard({ tasks: ["T-17"] }));
    await answerQuestion(tb, id, { text: "b", note: "all of 2026" }, { via: "telegram", by: "42" });
    const { job } = readJob(id);
    expect(job).toMatchObject({
      type: "question-followup",
      status: "pending",
      "question-ref": questionRel(id),
      "question-id": id,
      directive: "Move the held receipt into the chosen folder.",
      answer: { text: "Taxes", selected: "taxes", note: "all of 2026" },
      learning: {
        sink: "guide",
        ref: "/_config/finance.guide.card",
        proposal: "Receipts go in finance/receipts/.",
      },
      "answered-at": T0,
      "answered-via": "telegram",
      "answered-by": "42",
      tasks: ["T-17"],
    });
  });

  it("tells the agent to execute the directive and record the learning as a user-stated belief", async () => {
    const { id } = await askQuestion(tb, selectCard());
    await answerQuestion(tb, id, { text: "a" }, { via: "cli" });
    const { body } = readJob(id);
    expect(body).toContain("Execute the directive using the answer");
    expect(body).toContain("Record the learning in its sink (guide, /_config/finance.guide.card)");
    expect(body).toContain("`source: user-stated` belief that quotes the answer");
    expect(body).toContain('A "no" is learning too');
  });

  it("without a declared learning, asks the agent to judge whether the answer generalizes", async () => {
    const { id } = await askQuestion(tb, confirmCard());
    await answerQuestion(tb, id, { text: "no" }, { via: "cli" });
    const { job, body } = readJob(id);
    expect(job.learning).toBeUndefined();
    expect(job.answer).toEqual({ text: "No", selected: "no" });
    expect(body).toContain("No learning was declared");
    expect(body).toContain("Judge whether the answer generalizes");
    expect(body).toContain("`source: user-stated` belief quoting the answer");
    expect(body).not.toContain("Record the learning in its sink");
  });
});

describe("the answer commit", () => {
  it("is ONE commit holding the job and the card, with Answered-Via and Question trailers", async () => {
    const { id } = await askQuestion(tb, textCard());
    const before = await gitLog(tb.dir, "%H");
    const result = await answerQuestion(tb, id, { text: "Anna Muster" }, { via: "web" });
    const after = await gitLog(tb.dir, "%H");
    expect(after).toHaveLength(before.length + 1);
    expect(after[0]).toMatch(new RegExp(`^${result.commit}`));
    const message = await lastCommitMessage(tb.dir);
    expect(message).toMatch(/^answer: What is the name of the person/);
    expect(await lastCommitTrailers(tb.dir)).toEqual({ "Answered-Via": "web", Question: id });
    const { simpleGit } = await import("simple-git");
    const files = await simpleGit(tb.dir).raw(["show", "--name-only", "--format=", "HEAD"]);
    expect(files.trim().split("\n").sort()).toEqual([jobRel(id), questionRel(id)]);
  });

  it("writes the job before the card: killed between the two writes, the job exists and the card is still pending", async () => {
    const { id } = await askQuestion(tb, selectCard());
    const crashed = await runCli(["answer", id, "a"], {
      env: cliEnv(tb.dir, { QBRIDGE_TEST_CRASH_AT: "between-writes" }),
    });
    expect(crashed.code).not.toBe(0);
    expect(boxFileExists(tb.dir, jobRel(id))).toBe(true);
    expect(readBoxFile(tb.dir, questionRel(id))).toMatch(/^status: pending$/m);
  });
});
