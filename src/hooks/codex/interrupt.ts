// Codex's Interrupt hook: Codex runs it when a running turn is interrupted (the person pressed
// Esc at the computer). Its input (interrupt.command.input, embedded in the @openai/codex
// 0.169.0 binary; codex-rs/hooks/src/events/interrupt.rs) is session_id, turn_id,
// transcript_path, cwd, hook_event_name "Interrupt", model and permission_mode; it takes no
// matcher. Its output (interrupt.command.output) is empty or {"systemMessage"} and nothing
// else: Codex marks any other field a failed hook. Pure.

import { z } from "zod";
import { describeIssues } from "../../card/question.ts";
import { InvalidInput } from "../../errors.ts";

const InterruptInput = z
  .object({
    session_id: z.string().min(1, "the agent's session id is missing"),
    turn_id: z.string().min(1, "the turn id is missing"),
    transcript_path: z.string().nullable(),
    cwd: z.string().min(1, "the working directory is missing"),
    hook_event_name: z.literal("Interrupt"),
    model: z.string(),
    permission_mode: z.string(),
  })
  .passthrough();

/** A turn stopped at the computer: its open questions are withdrawn. */
export interface TurnInterrupted {
  agent: "codex";
  sessionId: string;
  turnId: string;
  cwd: string;
}

export function parseCodexInterrupt(text: string): TurnInterrupted {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidInput(
      "the Codex Interrupt hook input is not JSON: run this command as Codex's hook, which writes one JSON object",
    );
  }
  const result = InterruptInput.safeParse(value);
  if (!result.success) {
    throw new InvalidInput(
      `the Codex Interrupt hook input is not valid: ${describeIssues(result.error)}`,
    );
  }
  const raw = result.data;
  return { agent: "codex", sessionId: raw.session_id, turnId: raw.turn_id, cwd: raw.cwd };
}

/** What the hook prints: nothing when nothing was withdrawn, else a line Codex shows. */
export function interruptOutput(withdrawn: number): Record<string, unknown> | undefined {
  if (withdrawn === 0) return undefined;
  const questions = withdrawn === 1 ? "1 question" : `${withdrawn} questions`;
  return {
    systemMessage: `qbridge withdrew ${questions} from the phone: stopped at the computer.`,
  };
}
