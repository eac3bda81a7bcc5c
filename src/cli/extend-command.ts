// `qbridge extend ID DURATION`: more time for a pending question, one commit through the core.

import type { Command } from "commander";
import { expiryWords } from "../questions/deadline.ts";
import { extendQuestion } from "../questions/extend.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { writeOut } from "./output.ts";
import { resolveIdArgument } from "./question-ids.ts";

export function registerExtendCommand(program: Command): void {
  program
    .command("extend")
    .argument("<id>", "the question id")
    .argument("<duration>", "how much time to add: P7D, PT12H, or 3d, 12h, 2w")
    .option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box)")
    .option("--json", "print machine-readable JSON")
    .description("give a pending question more time before it expires (rewrites expires-after)")
    .addHelpText(
      "after",
      `
The time is added to the question's current deadline (or to now, when that has passed);
its nudge moves to half of the new expires-after.

Examples:
  qbridge extend 2026-07-10-where-do-receipts-go-3fa2c1 P7D
  qbridge extend 2026-07-10-where-do-receipts-go-3fa2c1 3d`,
    )
    .hook("preAction", resolveIdArgument)
    .action(async (id: string, duration: string, options: CommonOptions) => {
      await withCore(options, async (core) => {
        const result = await extendQuestion(core, id, duration, { via: "cli" });
        if (options.json) return printJson(result);
        const when = expiryWords(new Date(result.expiresAt), core.box.clock.now());
        writeOut(
          `extended ${id}: ${when} (${result.expiresAt.slice(0, 16).replace("T", " ")} UTC, expires-after ${result.expiresAfter})\n`,
        );
      });
    });
}
