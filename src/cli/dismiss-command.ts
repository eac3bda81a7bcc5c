// `qbridge dismiss ID`: dismisses a pending question; it stays answerable.

import type { Command } from "commander";
import { dismissQuestion } from "../questions/close.ts";
import { common } from "./box-options.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { writeOut } from "./output.ts";
import { resolveIdArgument } from "./question-ids.ts";

export function registerDismissCommand(program: Command): void {
  common(program.command("dismiss").argument("<id>", "the question id"))
    .description("dismiss a pending question (it stays answerable later)")
    .hook("preAction", resolveIdArgument)
    .action(dismissAction);
}

/** Dismisses the question through the core; it stays answerable. */
async function dismissAction(id: string, options: CommonOptions): Promise<void> {
  await withCore(options, async (core) => {
    const result = await dismissQuestion(core, id, { via: "cli" });
    if (options.json) return printJson(result);
    writeOut(`dismissed ${id}\n`);
  });
}
