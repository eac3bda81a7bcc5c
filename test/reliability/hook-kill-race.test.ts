// Story: the boxholder taps "Allow once" at the very instant the agent ends its permission hook
// (they answered at the computer too). Exactly one of answered / withdrawn is recorded, never
// both; the hook reports that one (the allow when the answer won, nothing when the withdrawal
// did), the losing side is refused naming the winner, and no job is ever written. `npm test`
// races twice at each of the three instants; `npm run soak` runs 20 rounds per SOAK.

import { afterAll, describe, expect, it } from "vitest";
import { TransitionRejected } from "../../src/errors.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { listJobs, pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { fixture, printed, startHook } from "../hooks/hook-support.ts";
import { cleanupBoxes, gitStatus, makeBox } from "../support/box.ts";
import { eventually } from "../support/child.ts";
import { history, printFigures } from "./invariants.ts";
import { SOAK } from "./soak.ts";

const ROUNDS = SOAK > 1 ? 20 * SOAK : 6;
const figures = { rounds: 0, answeredWon: 0, withdrawnWon: 0 };
afterAll(() => {
  printFigures("permission answered as its hook is killed", figures);
  cleanupBoxes();
});

describe("a permission answered at the instant its hook is killed", () => {
  it(`ends answered or withdrawn, never both, over ${ROUNDS} rounds`, async () => {
    const tb = await makeBox({ staleMs: 5000 });
    for (let round = 0; round < ROUNDS; round++) {
      const input = fixture("claude-permission-bash", { session_id: `race-${round}` });
      const hook = startHook("permission", tb.dir, input);
      const view = await eventually(() => pendingQuestions(tb).pending[0], 20_000, "the question");
      // The kill at once, or a little later, so both sides win some rounds (a commit takes
      // tens of milliseconds here); the instant itself is what the rounds spread over.
      const delay = ([0, 40, 120][round % 3] as number) + Math.floor(Math.random() * 40);
      const [answered] = await Promise.all([
        answerQuestion(tb, view.id, { text: "allow-once" }, { via: "telegram" }).then(
          () => true,
          (error: unknown) => {
            expect(error).toBeInstanceOf(TransitionRejected);
            expect((error as TransitionRejected).current).toBe("withdrawn");
            return false;
          },
        ),
        new Promise((resolve) => setTimeout(resolve, delay)).then(() => hook.kill("SIGTERM")),
      ]);
      const code = await hook.exited;
      const status = loadQuestion(tb, view.id).card.status;
      figures.rounds++;
      if (status === "answered") {
        figures.answeredWon++;
        expect(answered).toBe(true);
        // A hook that has printed its decision may be exiting when the signal comes: no process
        // handles a signal in node's own teardown, so it may end by it, its decision whole.
        if (code !== 0) expect(hook.ended()).toBe("SIGTERM");
        expect(printed(hook)).toMatchObject({
          hookSpecificOutput: { decision: { behavior: "allow" } },
        });
      } else {
        figures.withdrawnWon++;
        expect(status).toBe("withdrawn");
        expect(code).toBe(0);
        expect(answered).toBe(false);
        expect(printed(hook)).toBeUndefined();
      }
    }
    const { subjects, linear } = await history(tb.dir);
    expect(linear).toBe(true);
    const closing = subjects.filter((s) => s.startsWith("answer: ") || s.startsWith("withdraw: "));
    expect(closing).toHaveLength(ROUNDS);
    expect(figures.answeredWon + figures.withdrawnWon).toBe(ROUNDS);
    expect(listJobs(tb)).toEqual([]);
    expect(await gitStatus(tb.dir)).toBe("");
  });
});
