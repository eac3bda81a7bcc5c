// The one decision a hook hands back to whichever agent asked: today's HookDecision (allow,
// with the input as changed and the permissions to add; deny, with a message), and a deny that
// also stops the agent's turn (the card's Stop). Each agent's output builder writes it in that
// agent's documented shape and leaves out what the agent cannot take. A hook that has no
// decision hands back none: the agent then asks at its own screen. Pure: types only.

import type { HookDecision } from "./agent-output.ts";

/** Deny and stop the turn: Claude Code's and Copilot CLI's `interrupt: true` on a deny. */
export interface StopDecision {
  behavior: "deny";
  message: string;
  interrupt: true;
}

export type AgentDecision = HookDecision | StopDecision;

/** Whether a decision stops the turn (a plain deny leaves the agent to carry on). */
export function stops(decision: AgentDecision): decision is StopDecision {
  return decision.behavior === "deny" && "interrupt" in decision && decision.interrupt === true;
}
