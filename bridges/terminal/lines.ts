// What the keyboard reads with and the lines it writes for what recorded nothing: an error of
// the core, a slot held by another process, an outcome of the judge. Shared by the line reader
// (replies.ts) and its commands (keyboard-commands.ts); it imports neither.

import { InvalidAnswer, QbridgeError } from "../../src/errors.ts";
import {
  type Door,
  type Outcome,
  type Presentation,
  type Proof,
  shorten,
} from "../../src/slot/port.ts";
import { SURFACE } from "./presenter.ts";
import type { createKeyboardTriage } from "./triage.ts";

/** A typed answer waiting for its confirming yes (a lone character on a text question). */
export interface Unconfirmed {
  seq: number;
  text: string;
}

/**
 * One chat at the keyboard: what its lines are read with (its door, and what it shows of whoever
 * types: a terminal or piped input, and the login), and the answer awaiting a yes.
 */
export interface Keyboard {
  door: Door;
  proof: Proof;
  write: (text: string) => void;
  triage: ReturnType<typeof createKeyboardTriage>;
  unconfirmed: Unconfirmed | undefined;
}

export type LineOutcome = "quit" | undefined;

/** The one line a person reads for an error of the core. */
export function lineForError(error: unknown): string {
  // What was typed is quoted by its head: a pasted page is not written back whole.
  if (error instanceof InvalidAnswer) {
    return `Not recorded: "${shorten(error.given, 60)}" does not answer this question: expected ${error.expected}.\n`;
  }
  if (error instanceof QbridgeError) return `Not recorded: ${error.message}.\n`;
  return `Something went wrong; nothing was recorded: ${String((error as Error)?.message ?? error)}\n`;
}

/** The slot is held by another process: a qbridge serve presenting on Telegram, or another chat. */
export function heldElsewhere(open: Presentation): string {
  if (open.surface === SURFACE) {
    return "The open question is shown in another qbridge chat: answer it there, or quit that chat to answer here. Nothing was recorded.\n";
  }
  return `The open question is shown on ${open.surface} by another process (qbridge serve): answer it there, or stop that process to answer here. Nothing was recorded.\n`;
}

/** What the keyboard reads for an outcome that recorded nothing. */
export function lineFor(outcome: Outcome, nothingOpen: string): string {
  if (outcome.error !== undefined) return lineForError(outcome.error);
  if (outcome.reason === "nothing-open") return nothingOpen;
  if (outcome.reason === "held-elsewhere" && outcome.target) return heldElsewhere(outcome.target);
  return `${outcome.reply}\n`;
}
