// Story: several surfaces answer at the same moment, each in its own process. On one question
// exactly one answer wins and the rest are told it is already answered; on different questions
// every answer lands in its own commit and git's index never collides.

import { afterEach, describe, expect, it } from "vitest";
import { TransitionRejected } from "../../src/errors.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import {
  cleanupBoxes,
  cliEnv,
  gitLog,
  gitStatus,
  makeBox,
  runCli,
  selectCard,
  textCard,
} from "../support/box.ts";

afterEach(cleanupBoxes);

const ANSWERS = ["a", "b", "Finance", "Taxes", "finance", "taxes", "A", "B"];

describe("8 processes answering the same question at once", () => {
  it("lets exactly one win; the other 7 exit 3 naming the winner's status", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard());
    const results = await Promise.all(
      ANSWERS.map((answer) => runCli(["answer", id, answer], { env: cliEnv(tb.dir) })),
    );

    const winners = results.filter((r) => r.code === 0);
    const losers = results.filter((r) => r.code !== 0);
    expect(winners).toHaveLength(1);
    expect(losers.map((r) => r.code)).toEqual([3, 3, 3, 3, 3, 3, 3]);
    const card = loadQuestion(tb, id).card;
    for (const loser of losers) {
      expect(loser.stderr).toContain(`cannot answer question "${id}": it is already answered`);
      expect(loser.stderr).toContain(`answered "${card.answer?.text}" via cli`);
    }
    expect(winners[0]?.stdout).toContain(`answered ${id}: ${card.answer?.text}`);

    expect(listJobs(tb).map((j) => j.job?.["question-id"])).toEqual([id]);
    const answerCommits = (await gitLog(tb.dir, "%s%n%b")).filter((l) => l === `Question: ${id}`);
    expect(answerCommits).toHaveLength(2); // the ask and the one answer
    expect((await gitLog(tb.dir)).filter((s) => s.startsWith("answer: "))).toHaveLength(1);
    expect(await gitStatus(tb.dir)).toBe("");
  });
});

describe("8 processes answering 8 different questions at once", () => {
  it("lands all 8 answers in 8 commits with no index.lock error", async () => {
    const tb = await makeBox();
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      ids.push((await askQuestion(tb, selectCard({ prompt: `Receipt ${i}: where?` }))).id);
    }
    const results = await Promise.all(
      ids.map((id, i) => runCli(["answer", id, ANSWERS[i] as string], { env: cliEnv(tb.dir) })),
    );

    for (const result of results) {
      expect(result.stderr).not.toContain("index.lock");
      expect(result.code).toBe(0);
    }
    const subjects = await gitLog(tb.dir);
    expect(subjects.filter((s) => s.startsWith("answer: "))).toHaveLength(8);
    for (const id of ids) expect(loadQuestion(tb, id).card.status).toBe("answered");
    expect(
      listJobs(tb)
        .map((j) => j.job?.["question-id"])
        .sort(),
    ).toEqual([...ids].sort());
    expect(await gitStatus(tb.dir)).toBe("");
  });
});

describe("racing in one process and racing to ask", () => {
  it("lets one of two answers started together in one process win; the other is rejected", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard());
    const results = await Promise.allSettled([
      answerQuestion(tb, id, { text: "a" }, { via: "web" }),
      answerQuestion(tb, id, { text: "b" }, { via: "telegram" }),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(TransitionRejected);
    expect((lost[0] as PromiseRejectedResult).reason.current).toBe("answered");
    expect(listJobs(tb)).toHaveLength(1);
  });

  it("files one question when 4 processes ask the same prompt with --unless-open at once", async () => {
    const tb = await makeBox();
    const card = JSON.stringify(textCard());
    const results = await Promise.all(
      [1, 2, 3, 4].map(() =>
        runCli(["ask", "--json", "--unless-open"], { env: cliEnv(tb.dir), input: card }),
      ),
    );
    for (const result of results) expect(result.code).toBe(0);
    const printed = results.map((r) => JSON.parse(r.stdout));
    expect(new Set(printed.map((p) => p.id)).size).toBe(1);
    expect(printed.filter((p) => !p.deduplicated)).toHaveLength(1);
    expect((await gitLog(tb.dir)).filter((s) => s.startsWith("ask: "))).toHaveLength(1);
  });
});
