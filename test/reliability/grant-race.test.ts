// Story: two requests of one agent session wait; the boxholder taps "Allow for this session"
// on one while answering the other themselves (Deny) at about the same instant, so the grant's
// answer of the sibling races the sibling's own answer. Each question is answered exactly
// once: the sibling's card, its one commit, the loser's refusal and what its hook printed all
// name the same winner. 6 rounds in `npm test`, 200 under `npm run soak`.

import { afterAll, describe, expect, it } from "vitest";
import { TransitionRejected } from "../../src/errors.ts";
import { GRANT_CHECK_MS } from "../../src/hooks/grant-watch.ts";
import { GrantStore } from "../../src/ledger/grants.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import type { Core } from "../../src/questions/core.ts";
import { listJobs, pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { ClaudePermissionOutput } from "../hooks/agent-outputs.ts";
import { fixture, permissionHookInProcess } from "../hooks/hook-support.ts";
import { cleanupBoxes, gitStatus, makeBox } from "../support/box.ts";
import { eventually } from "../support/child.ts";
import { history, printFigures } from "./invariants.ts";
import { SOAK } from "./soak.ts";

const ROUNDS = SOAK > 1 ? 20 * SOAK : 6;
const figures = { rounds: 0, grantWon: 0, ownAnswerWon: 0 };
afterAll(() => {
  printFigures("a grant racing a sibling's own answer", figures);
  cleanupBoxes();
});

/** A Claude Code Bash request whose suggested rule `npm run test:*` covers its sibling. */
function request(session: string, script: string): string {
  return fixture("claude-permission-bash", {
    session_id: session,
    tool_input: { command: `npm run test ${script}` },
    permission_suggestions: [
      {
        type: "addRules",
        rules: [{ toolName: "Bash", ruleContent: "npm run test:*" }],
        behavior: "allow",
        destination: "localSettings",
      },
    ],
  });
}

/** The pending question whose prompt says `words`. */
function filed(core: Core, words: string): Promise<string> {
  return eventually(
    () => pendingQuestions(core).pending.find((q) => q.card.prompt.includes(words))?.id,
    20_000,
    `the question "${words}"`,
  );
}

const tap = (core: Core, id: string, option: string) =>
  answerQuestion(core, id, { text: option, option }, { via: "telegram", by: "1001" });

/**
 * The sibling's own Deny, sent once the session's grant is recorded and then up to one look of
 * the sibling's hook later, so both sides win some rounds; false when the grant won first.
 */
async function ownDenyOnceGranted(core: Core, session: string, id: string): Promise<boolean> {
  const grants = new GrantStore(core.ledger);
  await eventually(() => grants.all().some((g) => g.sessionId === session), 20_000, "the grant");
  const delay = Math.floor(Math.random() * (GRANT_CHECK_MS + 50));
  await new Promise((resolve) => setTimeout(resolve, delay));
  try {
    await tap(core, id, "deny");
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(TransitionRejected);
    expect((error as TransitionRejected).current).toBe("answered");
    return false;
  }
}

describe("a grant racing a sibling's own answer", () => {
  it(
    `answers each question exactly once over ${ROUNDS} rounds`,
    async () => {
      const tb = await makeBox({ staleMs: 5000 });
      for (let round = 0; round < ROUNDS; round++) {
        const session = `race-${round}`;
        const sibling = permissionHookInProcess(tb, request(session, `lint-${round}`));
        const granting = permissionHookInProcess(tb, request(session, `unit-${round}`));
        const [siblingId, grantingId] = await Promise.all([
          filed(tb, `lint-${round}`),
          filed(tb, `unit-${round}`),
        ]);
        const [, ownWon] = await Promise.all([
          tap(tb, grantingId, "allow-session"),
          ownDenyOnceGranted(tb, session, siblingId),
        ]);
        const printed = ClaudePermissionOutput.parse(await sibling.done);
        await granting.done;
        const card = loadQuestion(tb, siblingId).card;
        figures.rounds++;
        expect(card.status).toBe("answered");
        if (ownWon) {
          figures.ownAnswerWon++;
          expect(card["answered-via"]).toBe("telegram");
          expect(printed.hookSpecificOutput.decision.behavior).toBe("deny");
        } else {
          figures.grantWon++;
          expect(card["answered-via"]).toBe("grant");
          expect(printed.hookSpecificOutput.decision).toEqual({ behavior: "allow" });
        }
      }
      const { subjects, linear } = await history(tb.dir);
      expect(linear).toBe(true);
      expect(subjects.filter((s) => s.startsWith("answer: "))).toHaveLength(2 * ROUNDS);
      expect(figures.grantWon + figures.ownAnswerWon).toBe(ROUNDS);
      expect(pendingQuestions(tb).pending).toEqual([]);
      expect(listJobs(tb)).toEqual([]);
      expect(await gitStatus(tb.dir)).toBe("");
    },
    120_000 * SOAK,
  );
});
