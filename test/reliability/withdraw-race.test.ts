// Story: the asker withdraws a question at the very instant the boxholder answers it, from two
// processes (and, in one process, from two callers). Exactly one of answered / withdrawn wins;
// the other is told so with exit 3 naming the winner; the card, the job and the history agree
// with the winner, and a later answer to a withdrawn question is refused naming the withdrawal.

import { afterAll, describe, expect, it } from "vitest";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { withdrawQuestion } from "../../src/questions/withdraw.ts";
import { cleanupBoxes, cliEnv, gitStatus, makeBox, runCli, selectCard } from "../support/box.ts";
import { diskCards, diskJobs, history, printFigures } from "./invariants.ts";
import { SOAK } from "./soak.ts";

/** Questions raced between two processes: an answer and a withdrawal started together for each. */
const PAIRS = SOAK > 1 ? 4 : 2;
const figures = { races: 0, answeredWon: 0, withdrawnWon: 0 };
afterAll(() => {
  printFigures("withdraw against answer", figures);
  cleanupBoxes();
});

type Box = Awaited<ReturnType<typeof makeBox>>;

/** What must hold once both sides have finished, whoever won. */
async function expectOneWinner(tb: Box, ids: string[], winners: Map<string, string>) {
  const cards = new Map(diskCards(tb.dir).map((c) => [c.id, c]));
  const jobs = diskJobs(tb.dir);
  const { subjects, linear } = await history(tb.dir);
  expect(linear).toBe(true);
  for (const id of ids) {
    const status = cards.get(id)?.card?.status;
    expect(status).toBe(winners.get(id));
    expect(jobs.includes(id)).toBe(status === "answered");
    if (status === "answered") figures.answeredWon++;
    else figures.withdrawnWon++;
  }
  const changes = subjects.filter((s) => s.startsWith("answer: ") || s.startsWith("withdraw: "));
  expect(changes).toHaveLength(ids.length);
  expect(await gitStatus(tb.dir)).toBe("");
}

describe("withdraw racing answer", () => {
  it("between two processes, exactly one of answered / withdrawn wins each question", async () => {
    const tb = await makeBox({ staleMs: 5000 });
    const ids: string[] = [];
    for (let i = 0; i < PAIRS; i++) {
      ids.push((await askQuestion(tb, selectCard({ id: `race-w-${i}` }))).id);
    }
    const env = cliEnv(tb.dir);
    const runs = await Promise.all(
      ids.flatMap((id) => [
        runCli(["answer", id, "a"], { env }).then((r) => ({ id, op: "answered", ...r })),
        runCli(["withdraw", id, "--reason", "raced"], { env }).then((r) => ({
          id,
          op: "withdrawn",
          ...r,
        })),
      ]),
    );
    const winners = new Map<string, string>();
    for (const id of ids) {
      figures.races++;
      const both = runs.filter((r) => r.id === id);
      const won = both.filter((r) => r.code === 0);
      const lost = both.filter((r) => r.code !== 0);
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      const [winner] = won;
      const [loser] = lost;
      expect(loser?.code).toBe(3);
      expect(loser?.stderr).toContain(`it is already ${winner?.op}`);
      winners.set(id, winner?.op as string);
    }
    await expectOneWinner(tb, ids, winners);
  });

  it("within one process, exactly one wins, and a later answer is refused naming the withdrawal", async () => {
    const tb = await makeBox();
    const ids: string[] = [];
    const winners = new Map<string, string>();
    for (let i = 0; i < 6; i++) {
      const { id } = await askQuestion(tb, selectCard({ id: `race-in-${i}` }));
      ids.push(id);
      figures.races++;
      // Alternate who starts first, so both orders are raced.
      const answer = () => answerQuestion(tb, id, { text: "b" }, { via: "telegram", by: "7" });
      const withdraw = () => withdrawQuestion(tb, id, { via: "api" }, { reason: "not needed" });
      const settled = await Promise.allSettled(
        i % 2 === 0 ? [answer(), withdraw()] : [withdraw(), answer()],
      );
      const won = settled.filter((s) => s.status === "fulfilled");
      expect(won).toHaveLength(1);
      const card = diskCards(tb.dir).find((c) => c.id === id)?.card;
      winners.set(id, card?.status as string);
    }
    await expectOneWinner(tb, ids, winners);
    const withdrawn = ids.find((id) => winners.get(id) === "withdrawn") as string;
    await expect(answerQuestion(tb, withdrawn, { text: "a" }, { via: "cli" })).rejects.toThrow(
      `cannot answer question "${withdrawn}": it is already withdrawn (withdrawn by the asker at`,
    );
  });
});
