// The keyboard's commands: quit, help, waiting, next, accept and record (triage), park, later,
// and dismiss, same and extend (attempts for the judge). Each is its own function; `command`
// only picks one by name.

import { heldElsewhere, type Keyboard, type LineOutcome, lineFor } from "./lines.ts";
import { SURFACE } from "./presenter.ts";
import { bringBack, putOffText } from "./put-off.ts";
import { HELP_TEXT, waitingText } from "./render.ts";

export async function command(k: Keyboard, name: string, choice?: string): Promise<LineOutcome> {
  switch (name) {
    case "quit":
    case "exit":
    case "q":
      return "quit";
    case "help":
      k.write(HELP_TEXT);
      return;
    case "waiting":
      await waiting(k);
      return;
    case "next":
      await next(k);
      return;
    case "accept":
      await k.triage.accept();
      return;
    case "record":
      await k.triage.record();
      return;
    case "park":
      await park(k);
      return;
    case "later":
      await later(k, choice);
      return;
    case "dismiss":
    case "same":
    case "extend":
      await closing(k, name, choice);
      return;
  }
  return;
}

async function waiting({ slot, triage, write }: Keyboard): Promise<void> {
  if (await triage.waiting()) return;
  const { count, top, presented } = slot.waiting();
  const putOff = putOffText(slot);
  write(top || !putOff ? waitingText(count, top?.card, presented !== undefined) : "");
  write(putOff);
}

async function next({ slot, write }: Keyboard): Promise<void> {
  const { busy, presented } = await slot.next();
  const open = slot.current();
  if (busy && open && !slot.mine(open)) write(heldElsewhere(open));
  else if (busy) write("A question is open: answer it, or park it to see the next.\n");
  else if (!presented && !(await bringBack(slot))) write("Nothing is waiting on you.\n");
}

/** Park, judged as every surface's is (a question an agent waits on is never parked). */
async function park({ judge, actor, slot, write }: Keyboard): Promise<void> {
  const outcome = await judge.attempt({ kind: "command", surface: SURFACE, actor, action: "park" });
  if (outcome.kind !== "recorded") write(lineFor(outcome, "Nothing is open to park.\n"));
  else if (!slot.current()) write("Parked. Nothing else is waiting right now.\n");
}

/** "later" alone lists the times; "later morning" puts the open question off until then. */
async function later({ judge, actor, write }: Keyboard, choice: string | undefined): Promise<void> {
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
}

/** dismiss, same (as last time) and extend: commands on the open question for the judge. */
async function closing(
  { judge, actor, write }: Keyboard,
  name: "dismiss" | "same" | "extend",
  choice: string | undefined,
): Promise<void> {
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
}
