// `qbridge job-done ID`: step 3 of a follow-up job, marking it done in one commit.

import type { Command } from "commander";
import { markJobDone } from "../questions/job-done.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { writeOut } from "./output.ts";
import { resolveIdArgument } from "./question-ids.ts";

export function registerJobCommand(program: Command): void {
  program
    .command("job-done")
    .argument("<id>", "the question id whose follow-up job is done")
    .option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box)")
    .option("--json", "print machine-readable JSON")
    .description("mark the follow-up job of an answered question done (status: done, committed)")
    .addHelpText(
      "after",
      `
Run it once the job's steps are settled (qbridge jobs shows them). A job already done is left
as it is ("commit": null).

Example:
  qbridge job-done 2026-07-10-where-do-receipts-go-3fa2c1`,
    )
    .hook("preAction", resolveIdArgument)
    .action(async (id: string, options: CommonOptions) => {
      await withCore(options, async (core) => {
        const result = await markJobDone(core, id);
        if (options.json) return printJson(result);
        writeOut(result.commit ? `marked done: ${result.rel}\n` : `already done: ${result.rel}\n`);
      });
    });
}
