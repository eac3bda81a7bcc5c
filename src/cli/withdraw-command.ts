// `qbridge withdraw ID`: the asker takes a question back; prints the one outcome shape with
// --json (src/questions/outcome.ts).

import type { Command } from "commander";
import { questionOutcome } from "../questions/outcome.ts";
import { loadQuestion } from "../questions/store.ts";
import { withdrawQuestion } from "../questions/withdraw.ts";
import { common } from "./box-options.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { outcomeLink } from "./outcome-link.ts";
import { writeOut } from "./output.ts";
import { resolveIdArgument } from "./question-ids.ts";

export function registerWithdrawCommand(program: Command): void {
  common(program.command("withdraw").argument("<id>", "the question id"))
    .description("withdraw a question you asked: it is no longer needed and takes no answer")
    .option("--reason <text>", "why, shown to the boxholder in place of the question")
    .addHelpText(
      "after",
      '\nExample:\n  qbridge withdraw 2026-07-10-delete-old-backups-91bc07 --reason "the disk was cleaned up"',
    )
    .hook("preAction", resolveIdArgument)
    .action(async (id: string, options: CommonOptions & { reason?: string }) => {
      await withCore(options, async (core, config) => {
        await withdrawQuestion(core, id, { via: "cli" }, { reason: options.reason });
        const outcome = questionOutcome(loadQuestion(core, id), {
          now: core.box.clock.now(),
          link: await outcomeLink(core, config),
        });
        if (options.json) return printJson(outcome);
        writeOut(`withdrawn ${id}\n`);
      });
    });
}
