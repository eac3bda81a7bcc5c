// A hook's wait on its question, and its end: when the hook process is ended first (the agent
// took the answer at its own screen, or gave up), the question is withdrawn through the core,
// so every surface says so and no later answer is applied. The transition core's lock decides
// a tap and a withdrawal that meet: exactly one of them is recorded, and the hook reports that
// one.

import { TransitionRejected } from "../errors.ts";
import type { Core } from "../questions/core.ts";
import { type QuestionOutcome, questionOutcome } from "../questions/outcome.ts";
import { readCommitted } from "../questions/transition.ts";
import { waitForOutcome } from "../questions/waiter.ts";
import { withdrawQuestion } from "../questions/withdraw.ts";
import { HOOK_SURFACE as HOOK } from "../surfaces.ts";
import type { HookEnd, HookLifetime } from "./lifetime.ts";

/** The surface a hook's own transitions are recorded under (declared in src/surfaces.ts). */
export const HOOK_SURFACE = { via: HOOK.name };

export const ENDED_REASONS: Record<HookEnd, string> = {
  signal: "answered at the computer",
  "parent-gone": "answered at the computer",
  timeout: "the agent's hook timed out: answer at the computer",
};

async function outcomeNow(core: Core, id: string): Promise<QuestionOutcome> {
  const loaded = await readCommitted(core, id);
  return questionOutcome(loaded, { now: core.box.clock.now() });
}

/**
 * Withdraws the question unless it was decided first; returns its outcome either way (the
 * answer that won, or the withdrawal).
 */
export async function withdrawUnlessDecided(
  core: Core,
  id: string,
  reason: string,
): Promise<QuestionOutcome> {
  try {
    await withdrawQuestion(core, id, HOOK_SURFACE, { reason });
  } catch (error) {
    if (!(error instanceof TransitionRejected)) throw error;
  }
  return outcomeNow(core, id);
}

/** The question's outcome once decided, or once the hook's life ended (then withdrawn). */
export async function waitWhileHookLives(
  core: Core,
  id: string,
  lifetime: HookLifetime,
): Promise<QuestionOutcome> {
  const outcome = await waitForOutcome(core, id, Number.POSITIVE_INFINITY, {
    signal: lifetime.signal,
  });
  if (outcome.status !== "pending") return outcome;
  return withdrawUnlessDecided(core, id, ENDED_REASONS[lifetime.ended() ?? "signal"]);
}
