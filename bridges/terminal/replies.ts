// A typed line at the keyboard: a command (park, dismiss, later, next, waiting, accept, record,
// help, quit: keyboard-commands.ts), or an answer to the open question (a letter, a label,
// "Label - note", yes/no, free text). Answers, commands and triage (triage.ts) are attempts for
// the one judge (src/slot/judge/), as a Telegram reply or tap is, each with what the keyboard
// shows of whoever types (a person at a terminal, or piped input: the judge decides what that
// proves); this file only turns lines into attempts and outcomes into lines. What does not
// resolve is said in one line and nothing is recorded; nothing is guessed.

import type { Door, Proof } from "../../src/slot/port.ts";
import { command } from "./keyboard-commands.ts";
import { type Keyboard, type LineOutcome, lineFor, type Unconfirmed } from "./lines.ts";
import { SURFACE } from "./presenter.ts";
import { createKeyboardTriage } from "./triage.ts";

export type { LineOutcome } from "./lines.ts";
export { lineForError } from "./lines.ts";

const COMMAND = /^\/?(park|dismiss|same|next|waiting|accept|record|help|quit|exit|q)$/i;
/** later, alone or with the time it puts the open question off to ("later morning"). */
const LATER = /^\/?later(?:\s+(\S+))?$/i;
/**
 * extend, alone (7 days) or with the rest of the line as the time it gives ("extend 3d",
 * "extend 3 d"): never an answer, however the rest reads; in quotes it is one.
 */
const EXTEND = /^\/?extend(?:\s+(.+))?$/i;
const QUOTED = /^"(.*)"$/s;
const YES = /^(y|yes)$/i;
const NO = /^(n|no)$/i;

export function createLineHandler(deps: {
  door: Door;
  write: (text: string) => void;
  /** What the keyboard shows of whoever types: a terminal or piped input, and the login. */
  proof: Proof;
}): (line: string, begunUnder?: BegunUnder) => Promise<LineOutcome> {
  const { door, write, proof } = deps;
  const triage = createKeyboardTriage({ door, proof, write, lineFor });
  const keyboard: Keyboard = { door, proof, write, triage, unconfirmed: undefined };
  return (line, begunUnder) => readLine(keyboard, line, begunUnder);
}

/**
 * For a line the person had begun typing when the next question's block appeared: the
 * presentation on screen then (none when nothing was). Its answer is judged for that one.
 */
export interface BegunUnder {
  seq: number | undefined;
}

/** One typed line: the yes or no a confirmation waits for, a quoted answer, a command, or an answer. */
async function readLine(k: Keyboard, line: string, begunUnder?: BegunUnder): Promise<LineOutcome> {
  const text = line.trim();
  if (!text) return;
  const asked = k.unconfirmed;
  k.unconfirmed = undefined;
  if (asked && (await confirmation(k, asked, text))) return;
  const quoted = QUOTED.exec(text);
  if (quoted) {
    await answer(k, quoted[1] as string, { literal: true, begunUnder });
    return;
  }
  const later = LATER.exec(text);
  if (later) return command(k, "later", later[1]);
  const extend = EXTEND.exec(text);
  if (extend) return command(k, "extend", extend[1]);
  const name = COMMAND.exec(text)?.[1]?.toLowerCase();
  if (name) return command(k, name);
  await answer(k, text, { begunUnder });
  return;
}

/**
 * `how.literal`: typed in quotes, so taken as it is (no stray key); `how.confirmed`: a yes to
 * "Record ...?" for the presentation `seq`, which must still be the open one.
 */
async function answer(
  k: Keyboard,
  text: string,
  how: { literal?: boolean; confirmed?: { seq: number }; begunUnder?: BegunUnder } = {},
): Promise<void> {
  // Where it was written, as a chat's message ids tell it: just after the block on screen when
  // the line was begun, so the judge takes it for that presentation, never for a newer one.
  const written = how.begunUnder && { chatId: SURFACE, messageId: (how.begunUnder.seq ?? 0) + 1 };
  const outcome = await k.door.attempt({
    kind: "text",
    proof: k.proof,
    text,
    literal: how.literal,
    confirmed: how.confirmed,
    ...written,
  });
  const { answer: recorded, confirm, target } = outcome;
  if (outcome.kind === "needs-confirmation" && confirm && target) {
    k.unconfirmed = { seq: target.seq, text: confirm.text };
    k.write(`${outcome.reply} Type yes or no.\n`);
  } else if ((outcome.kind === "recorded" || outcome.kind === "replayed") && recorded) {
    k.write(`Recorded: ${recorded.text}${recorded.note ? ` (note: ${recorded.note})` : ""}\n`);
  } else {
    k.write(
      lineFor(
        outcome,
        written
          ? `"${text.slice(0, 60)}" was begun before this question appeared, so it was not recorded. Type your answer again.\n`
          : `Nothing is open right now, so "${text.slice(0, 60)}" was not recorded. Type next or waiting.\n`,
      ),
    );
  }
}

/** The line after a confirming question: yes records, no drops; anything else is a new line. */
async function confirmation(k: Keyboard, asked: Unconfirmed, text: string): Promise<boolean> {
  if (NO.test(text)) {
    k.write(`Not recorded: "${asked.text}". Type your answer.\n`);
    return true;
  }
  if (!YES.test(text)) return false;
  await answer(k, asked.text, { confirmed: { seq: asked.seq } });
  return true;
}
