// The keyboard's commands: quit, help, and the attempts for the judge: waiting, next, accept and
// record (triage), park, later, dismiss, same and extend, each meaning what it means on every
// surface (next brings a put-off question back when nothing else waits). Each is its own
// function; `command` only picks one by name.

import { heldElsewhere, type Keyboard, type LineOutcome, lineFor } from "./lines.ts";
import { putOffText } from "./put-off.ts";
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

async function waiting(k: Keyboard): Promise<void> {
  const { door, triage, write } = k;
  const outcome = await door.attempt({ kind: "command", proof: k.proof, action: "waiting" });
  const shown = outcome.shows;
  if (shown?.kind !== "waiting") return void write(lineFor(outcome, ""));
  if (shown.digest) return triage.digest(shown.digest);
  const { count, top, presented } = shown.waiting;
  const putOff = putOffText(shown.putOff, door.now(), door.timeZone);
  write(top || !putOff ? waitingText(count, top?.card, presented !== undefined) : "");
  write(putOff);
}

async function next(k: Keyboard): Promise<void> {
  const outcome = await k.door.attempt({ kind: "command", proof: k.proof, action: "next" });
  const shown = outcome.shows;
  if (shown?.kind !== "next") return void k.write(lineFor(outcome, ""));
  if (shown.result === "held-elsewhere" && shown.open) k.write(heldElsewhere(shown.open));
  else if (shown.result === "busy") {
    k.write("A question is open: answer it, or park it to see the next.\n");
  } else if (shown.result === "nothing") k.write("Nothing is waiting on you.\n");
}

/** Park, judged as every surface's is (a question an agent waits on is never parked). */
async function park(k: Keyboard): Promise<void> {
  const outcome = await k.door.attempt({ kind: "command", proof: k.proof, action: "park" });
  if (outcome.kind !== "recorded") k.write(lineFor(outcome, "Nothing is open to park.\n"));
  else if (!k.door.current()) k.write("Parked. Nothing else is waiting right now.\n");
}

/** "later" alone lists the times; "later morning" puts the open question off until then. */
async function later({ door, proof, write }: Keyboard, choice: string | undefined): Promise<void> {
  const outcome = await door.attempt({
    kind: "command",
    proof,
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
  { door, proof, write }: Keyboard,
  name: "dismiss" | "same" | "extend",
  choice: string | undefined,
): Promise<void> {
  const outcome = await door.attempt({
    kind: "command",
    proof,
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
