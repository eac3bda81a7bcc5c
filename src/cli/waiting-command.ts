// `qbridge waiting`: what is waiting on me: the count and the top question alone.

import type { Command } from "commander";
import { pendingQuestions } from "../questions/state.ts";
import { settleBeforeListing } from "../questions/transition.ts";
import { common } from "./box-options.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { waitingOnMe } from "./list-command.ts";
import { writeErr, writeOut } from "./output.ts";
import { showText } from "./render.ts";

export function registerWaitingCommand(program: Command): void {
  common(program.command("waiting"))
    .description("what is waiting on me: the count and the top question alone")
    .action(waitingAction);
}

/** Prints the count waiting and the top question alone, after settling a half-done write. */
async function waitingAction(options: CommonOptions): Promise<void> {
  await withCore(options, async (core) => {
    await settleBeforeListing(core);
    const { count, top, pastDeadline } = waitingOnMe(core, pendingQuestions(core).pending);
    if (options.json) return printJson({ count, top: top ?? null });
    if (pastDeadline > 0) {
      writeErr(
        `note: ${pastDeadline} past its deadline and not counted: "qbridge age" (or a running serve) expires it\n`,
      );
    }
    if (!top)
      return void writeOut(
        count ? `${count} waiting, all put off until later\n` : "nothing is waiting on you\n",
      );
    writeOut(`${count} waiting. Top:\n\n${showText(top)}`);
  });
}
