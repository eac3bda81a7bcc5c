// `qbridge hook interrupt`: an agent's turn was stopped at the computer (Codex's Interrupt
// hook: the person pressed Esc, and Codex ended the waiting permission hook with SIGKILL). Every
// open question the permission path filed for that agent session is withdrawn at once through
// the core, "stopped at the computer", so every surface says so and no later tap is applied;
// a question already answered keeps its answer. It prints what the agent's room says (Codex:
// nothing, or one system message), and never anything the agent would read as a decision.

import { CardUnreadable, InvalidInput, QuestionNotFound, TransitionRejected } from "../errors.ts";
import { PermissionRequests } from "../ledger/permission-requests.ts";
import type { Core } from "../questions/core.ts";
import { loadQuestion } from "../questions/store.ts";
import { withdrawQuestion } from "../questions/withdraw.ts";
import { jsonOf } from "./agent-input.ts";
import { roomNamed, roomOfInput } from "./agents/list.ts";
import type { AgentRoom } from "./agents/room.ts";
import { HOOK_SURFACE } from "./hook-wait.ts";

export const STOPPED_AT_THE_COMPUTER = "stopped at the computer";

export interface InterruptHookOptions {
  /** The agent's name (`--agent`); without it, the room that recognizes the input. */
  agent?: string | undefined;
  print: (value: Record<string, unknown>) => void;
}

function roomWithInterrupt(text: string, agent: string | undefined) {
  const room: AgentRoom = agent !== undefined ? roomNamed(agent) : roomOfInput(jsonOf(text));
  if (!room.interrupt) {
    throw new InvalidInput(
      `${room.label} has no hook for a stopped turn: its questions are withdrawn when its permission hook ends`,
    );
  }
  return { room, interrupt: room.interrupt };
}

/** Withdraws `id` if it is still open; true when this call withdrew it. */
async function withdrawOpen(core: Core, id: string): Promise<boolean> {
  try {
    if (loadQuestion(core, id).card.status !== "pending") return false;
    await withdrawQuestion(core, id, HOOK_SURFACE, { reason: STOPPED_AT_THE_COMPUTER });
    return true;
  } catch (error) {
    // Decided first, or its card removed or broken by hand: nothing left to withdraw.
    if (error instanceof TransitionRejected || error instanceof QuestionNotFound) return false;
    if (error instanceof CardUnreadable) return false;
    throw error;
  }
}

export async function runInterruptHook(
  core: Core,
  text: string,
  options: InterruptHookOptions,
): Promise<number> {
  const { room, interrupt } = roomWithInterrupt(text, options.agent);
  const { sessionId } = interrupt.read(text);
  const ids = new PermissionRequests(core.ledger.db).ofSession(room.name, sessionId);
  let withdrawn = 0;
  for (const id of ids) if (await withdrawOpen(core, id)) withdrawn++;
  const output = interrupt.write(withdrawn);
  if (output) options.print(output as Record<string, unknown>);
  return withdrawn;
}
