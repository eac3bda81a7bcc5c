// `qbridge list`: pending questions in the order the slot presents them (priority, earliest
// expiry, oldest; parked questions behind the rest, in the order they were parked), then with
// --all the archive, newest first.

import type { Command } from "commander";
import { questionFingerprint } from "../card/fingerprint.ts";
import type { Core } from "../questions/core.ts";
import { boxState, pendingQuestions, type QuestionView } from "../questions/state.ts";
import { settleBeforeListing } from "../questions/transition.ts";
import { LaterStore } from "../slot/attention/later.ts";
import { dueQueue, queueOrder } from "../slot/order.ts";
import { PresentationStore } from "../slot/presentation/records.ts";
import { common } from "./box-options.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { writeErr, writeOut } from "./output.ts";
import { listLine } from "./render.ts";

/** The pending questions as the slot queues them, and which of them are parked. */
export function slotOrder(
  core: Core,
  pending: QuestionView[],
): { ordered: QuestionView[]; parked: string[] } {
  const { ready, parked } = queueOrder(pending, core.ledger.store(PresentationStore).parked());
  return { ordered: [...ready, ...parked], parked: parked.map((q) => q.id) };
}

/**
 * "What is waiting on me?" as the slot answers it on every chat surface (slot/operations.ts):
 * the count leaves out questions past their deadline (the next sweep expires them, nobody is
 * asked them any more); the top is the question presented now, else the next one the slot
 * would present (not one put off with Later, parked ones last).
 */
export function waitingOnMe(
  core: Core,
  pending: QuestionView[],
): { count: number; top: QuestionView | undefined; pastDeadline: number } {
  const now = core.box.clock.now();
  const presentations = core.ledger.store(PresentationStore);
  const putOff = core.ledger.store(LaterStore).waiting(now);
  const { live, ready, parked } = dueQueue(pending, now, putOff, presentations.parked());
  const open = presentations.open();
  const presented =
    open?.state === "presented" ? live.find((q) => q.id === open.questionId) : undefined;
  const top = presented ?? ready[0] ?? parked[0];
  return { count: live.length, top, pastDeadline: pending.length - live.length };
}

/** A question as `list --json` prints it: with its version (`hash`, what answer --expect names). */
function versioned(view: QuestionView): QuestionView & { hash: string } {
  return { ...view, hash: questionFingerprint(view.card) };
}

function line(view: QuestionView, parked: string[]): string {
  return parked.includes(view.id) ? `${listLine(view)}  (parked)` : listLine(view);
}

function printLines(title: string, lines: string[]): void {
  writeOut(`${title} (${lines.length})\n${lines.map((l) => `  ${l}\n`).join("")}`);
}

function warnUnreadable(count: number): void {
  if (count > 0)
    writeErr(`${count} card(s) cannot be read and were skipped: run "qbridge doctor"\n`);
}

/** `qbridge list [--all]`. */
export async function listQuestions(options: CommonOptions & { all?: boolean }): Promise<void> {
  await withCore(options, async (core) => {
    await settleBeforeListing(core);
    if (options.all) {
      const state = boxState(core);
      const { ordered, parked } = slotOrder(core, state.pending);
      if (options.json) {
        const [pending, archive] = [ordered.map(versioned), state.archive.map(versioned)];
        return printJson({ ...state, pending, archive, parked });
      }
      printLines(
        "pending",
        ordered.map((v) => line(v, parked)),
      );
      printLines("archive", state.archive.map(listLine));
      warnUnreadable(state.unreadable.length);
      return;
    }
    const { pending, unreadable } = pendingQuestions(core);
    const { ordered, parked } = slotOrder(core, pending);
    if (options.json) return printJson({ pending: ordered.map(versioned), parked, unreadable });
    writeOut(
      ordered.length
        ? `${ordered.map((v) => line(v, parked)).join("\n")}\n`
        : "no pending questions\n",
    );
    warnUnreadable(unreadable.length);
  });
}

export function registerListCommand(program: Command): void {
  common(program.command("list"))
    .description(
      "list pending questions in the slot's order (priority, earliest expiry, oldest; parked ones last)",
    )
    .option("--all", "also list the archive: answered, dismissed and expired questions")
    .action(listQuestions);
}
