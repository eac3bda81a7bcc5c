// `qbridge dismiss ID`: dismisses a pending question; it stays answerable.

import type { Command } from "commander";
import { dismissQuestion } from "../questions/close.ts";
import { judgePage } from "../slot/judge/page-acts.ts";
import { CLI_SURFACE } from "../surfaces.ts";
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

/**
 * Dismisses the question through the judge (the CLI speaks for agents: an agent's own request
 * is the boxholder's to decline) and the core; it stays answerable.
 */
async function dismissAction(id: string, options: CommonOptions): Promise<void> {
  await withCore(options, async (core) => {
    const from = { surface: CLI_SURFACE, proof: { kind: "shell" as const, login: undefined } };
    const verdict = await judgePage(
      core,
      { kind: "page", from, act: "dismiss", questionId: id },
      (by) => dismissQuestion(core, id, by),
    );
    if (verdict.kind === "refused") throw verdict.error ?? new Error(verdict.reply);
    const result = verdict.value;
    if (options.json) return printJson(result);
    writeOut(`dismissed ${id}\n`);
  });
}
