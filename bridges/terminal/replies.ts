// A typed line at the keyboard: a command (park, dismiss, later, next, waiting, accept, record,
// help, quit), or an answer to the open question (a letter, a label, "Label - note", yes/no,
// free text). Answers, dismissals and triage (triage.ts) are attempts for the one judge
// (src/slot/attempts.ts), as a Telegram reply or tap is; this file only turns lines into
// attempts and outcomes into lines. What does not resolve
// is said in one line and nothing is recorded; nothing is guessed.

import { QbridgeError } from "../../src/errors.ts";
import { createJudge, type Outcome, type Presentation, type Slot } from "../../src/slot/port.ts";
import { SURFACE } from "./presenter.ts";
import { bringBack, putOffText } from "./put-off.ts";
import { HELP_TEXT, waitingText } from "./render.ts";
import { createKeyboardTriage } from "./triage.ts";

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

/** A typed answer waiting for its confirming yes (a lone character on a text question). */
interface Unconfirmed {
  seq: number;
  text: string;
}

export type LineOutcome = "quit" | undefined;

/** The one line a person reads for an error of the core. */
export function lineForError(error: unknown): string {
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

export function createLineHandler(deps: {
  slot: Slot;
  write: (text: string) => void;
  /** Who sits at the keyboard (the login name), recorded as answered-by. */
  by: string | undefined;
}) {
  const { slot, write } = deps;
  const judge = createJudge(slot);
  const actor = { id: deps.by, boxholder: true };
  let unconfirmed: Unconfirmed | undefined;
  const triage = createKeyboardTriage({ slot, judge, actor, write, lineFor });

  async function command(name: string, choice?: string): Promise<LineOutcome> {
    switch (name) {
      case "quit":
      case "exit":
      case "q":
        return "quit";
      case "help":
        write(HELP_TEXT);
        return;
      case "waiting": {
        if (await triage.waiting()) return;
        const { count, top, presented } = slot.waiting();
        const putOff = putOffText(slot);
        write(top || !putOff ? waitingText(count, top?.card, presented !== undefined) : "");
        write(putOff);
        return;
      }
      case "next": {
        const { busy, presented } = await slot.next();
        const open = slot.current();
        if (busy && open && !slot.mine(open)) write(heldElsewhere(open));
        else if (busy) write("A question is open: answer it, or park it to see the next.\n");
        else if (!presented && !(await bringBack(slot))) write("Nothing is waiting on you.\n");
        return;
      }
      case "accept":
        await triage.accept();
        return;
      case "record":
        await triage.record();
        return;
      case "park":
        return slot.exclusive(async (ops) => {
          const open = ops.current();
          if (!open) return void write("Nothing is open to park.\n");
          if (!ops.mine(open)) return void write(heldElsewhere(open));
          await ops.park();
          if (!ops.current()) write("Parked. Nothing else is waiting right now.\n");
        });
      case "later": {
        // "later" alone lists the times; "later morning" puts the open question off until then.
        const outcome = await judge.attempt({
          kind: "command",
          surface: SURFACE,
          actor,
          action: "later",
          optionId: choice?.toLowerCase(),
        });
        if (outcome.kind === "clarification" && outcome.later) {
          const times = outcome.later.map((o) => `  later ${o.choice.padEnd(8)} ${o.label}`);
          write(`${outcome.reply} Type one of:\n${times.join("\n")}\n`);
        } else if (outcome.kind === "recorded") write(`${outcome.reply}\n`);
        else write(lineFor(outcome, "Nothing is open to put off.\n"));
        return;
      }
      case "dismiss":
      case "same":
      case "extend": {
        const outcome = await judge.attempt({
          kind: "command",
          surface: SURFACE,
          actor,
          action: name,
          label: choice,
        });
        if (outcome.kind === "recorded") return;
        write(lineFor(outcome, `Nothing is open to ${name}.\n`));
        // "extend soon" on a text question may have been meant as the answer: say how to give it.
        if (choice && outcome.error !== undefined) {
          write(`To record "${name} ${choice}" as your answer, type it in quotes.\n`);
        }
        return;
      }
    }
    return;
  }

  /** What the keyboard reads for an outcome that recorded nothing. */
  function lineFor(outcome: Outcome, nothingOpen: string): string {
    if (outcome.error !== undefined) return lineForError(outcome.error);
    if (outcome.reason === "nothing-open") return nothingOpen;
    if (outcome.reason === "held-elsewhere" && outcome.target) return heldElsewhere(outcome.target);
    return `${outcome.reply}\n`;
  }

  /**
   * `how.literal`: typed in quotes, so taken as it is (no stray key); `how.confirmed`: a yes to
   * "Record ...?" for the presentation `seq`, which must still be the open one.
   */
  async function answer(
    text: string,
    how: { literal?: boolean; confirmed?: { seq: number } } = {},
  ): Promise<void> {
    const outcome = await judge.attempt({
      kind: "text",
      surface: SURFACE,
      actor,
      text,
      literal: how.literal,
      confirmed: how.confirmed,
    });
    const { answer: recorded, confirm, target } = outcome;
    if (outcome.kind === "needs-confirmation" && confirm && target) {
      unconfirmed = { seq: target.seq, text: confirm.text };
      write(`${outcome.reply} Type yes or no.\n`);
    } else if ((outcome.kind === "recorded" || outcome.kind === "replayed") && recorded) {
      write(`Recorded: ${recorded.text}${recorded.note ? ` (note: ${recorded.note})` : ""}\n`);
    } else {
      write(
        lineFor(
          outcome,
          `Nothing is open right now, so "${text.slice(0, 60)}" was not recorded. Type next or waiting.\n`,
        ),
      );
    }
  }

  /** The line after a confirming question: yes records, no drops; anything else is a new line. */
  async function confirmation(asked: Unconfirmed, text: string): Promise<boolean> {
    if (NO.test(text)) {
      write(`Not recorded: "${asked.text}". Type your answer.\n`);
      return true;
    }
    if (!YES.test(text)) return false;
    await answer(asked.text, { confirmed: { seq: asked.seq } });
    return true;
  }

  return async function handleLine(line: string): Promise<LineOutcome> {
    const text = line.trim();
    if (!text) return;
    const asked = unconfirmed;
    unconfirmed = undefined;
    if (asked && (await confirmation(asked, text))) return;
    const quoted = QUOTED.exec(text);
    if (quoted) {
      await answer(quoted[1] as string, { literal: true });
      return;
    }
    const later = LATER.exec(text);
    if (later) return command("later", later[1]);
    const extend = EXTEND.exec(text);
    if (extend) return command("extend", extend[1]);
    const name = COMMAND.exec(text)?.[1]?.toLowerCase();
    if (name) return command(name);
    await answer(text);
    return;
  };
}
