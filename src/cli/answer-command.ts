// `qbridge answer ID ANSWER`: records an answer through the core.

import type { Command } from "commander";
import { answerQuestion } from "../questions/answer.ts";
import { common } from "./box-options.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { writeOut } from "./output.ts";
import { resolveIdArgument } from "./question-ids.ts";

export function registerAnswerCommand(program: Command): void {
  common(
    program
      .command("answer")
      .argument("<id>", "the question id")
      .argument("<answer>", "the answer"),
  )
    .description(
      'answer a question: a letter, label or option id; several separated by commas ("a, c"); yes/no; or text',
    )
    .option("--note <text>", "a note with the answer (the own words for an 'other' option)")
    .addHelpText(
      "after",
      `
Examples:
  qbridge answer 2026-07-10-where-do-receipts-go-3fa2c1 b
  qbridge answer 2026-07-10-where-do-receipts-go-3fa2c1 Finance --note "only the paper ones"
  qbridge answer 2026-07-10-delete-old-backups-91bc07 yes`,
    )
    .hook("preAction", resolveIdArgument)
    .action(answerAction);
}

/** Records the answer through the core and says whether a follow-up job was written. */
async function answerAction(
  id: string,
  answer: string,
  options: CommonOptions & { note?: string },
): Promise<void> {
  await withCore(options, async (core) => {
    const result = await answerQuestion(
      core,
      id,
      { text: answer, note: options.note },
      { via: "cli" },
    );
    if (options.json) return printJson(result);
    writeOut(
      result.jobRel
        ? `answered ${id}: ${result.answer.text}\nfollow-up job: ${result.jobRel}\n`
        : `answered ${id}: ${result.answer.text}\nthe waiting agent reads the answer (no follow-up job)\n`,
    );
  });
}
