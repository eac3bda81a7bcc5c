// An agent's plan (Claude Code's ExitPlanMode) reviewed on the phone: one plan card filed under
// the hook's lease, waited on while the hook lives, and the boxholder's choice printed as the
// agent takes it (plan-review.ts): Approve and "accept edits" allow with the input echoed (a
// plain allow would leave the agent's own dialog waiting), Keep planning denies with the note,
// never interrupting. A dismissal is told as a no; nothing else is printed without an answer.

import { askQuestion } from "../questions/ask.ts";
import type { Core } from "../questions/core.ts";
import type { QuestionOutcome } from "../questions/outcome.ts";
import type { AgentDecision } from "./agent-decision.ts";
import type { AgentRoom } from "./agents/room.ts";
import { planCard } from "./claude/plan-card.ts";
import {
  PLAN_CHOICES,
  type PlanChoice,
  type PlanRequest,
  planDecision,
} from "./claude/plan-review.ts";
import { fileUnderLease } from "./filing.ts";
import { waitWhileHookLives, withdrawUnlessDecided } from "./hook-wait.ts";
import type { HookLifetime } from "./lifetime.ts";

export interface PlanReviewOptions {
  timeoutSeconds: number;
  lifetime: HookLifetime;
  print: (value: Record<string, unknown>) => void;
  tell: (line: string) => void;
}

const CHOICES: readonly string[] = Object.values(PLAN_CHOICES);

function decisionOf(plan: PlanRequest, outcome: QuestionOutcome): AgentDecision | undefined {
  if (outcome.status === "dismissed") {
    const message = `The owner set your plan aside on their phone without approving it (question ${outcome.id}). Do not start coding: revise the plan or ask them.`;
    return { behavior: "deny", message };
  }
  const answer = outcome.status === "answered" ? outcome.answer : undefined;
  if (!answer?.selected || !CHOICES.includes(answer.selected)) return undefined;
  return planDecision(plan, answer.selected as PlanChoice, answer.note);
}

export async function runPlanReview(
  core: Core,
  room: AgentRoom,
  plan: PlanRequest,
  options: PlanReviewOptions,
): Promise<void> {
  const { card, request } = planCard(plan, room.label, options.timeoutSeconds);
  const agentPrompt = { kind: "plan" as const, request };
  const filed = await fileUnderLease(
    core,
    options.lifetime,
    room.label,
    (meanwhile) => askQuestion(core, card, { via: "hook", agentPrompt, meanwhile }),
    options.tell,
  );
  if (!filed) return;
  const outcome = await waitWhileHookLives(core, filed.id, options.lifetime);
  const decision = decisionOf(plan, outcome);
  if (decision) options.print(room.writePermission(decision));
  if (outcome.status === "dismissed") {
    await withdrawUnlessDecided(core, filed.id, "dismissed on the phone: the agent was told no");
  }
  await filed.lease.release();
}
