// `qbridge answer ID ANSWER`: records an answer through the judge, which takes the CLI for an
// asker (ordinary questions only) and checks the version the answer names (--expect).

import type { Command } from "commander";
import { judgeAnswer } from "../slot/judge/by-id.ts";
import { CLI_SURFACE } from "../surfaces.ts";
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
    .option(
      "--expect <hash>",
      "the version of the question you answer (hash, as show --json and list --json print it): refused if it was edited since",
    )
    .addHelpText(
      "after",
      `
Without --expect, a letter or a label is refused once the question was edited since it was
asked (it may mean another option now); an option's id is taken as it is.

Examples:
  qbridge answer 2026-07-10-where-do-receipts-go-3fa2c1 b --expect Hk2vA9xq3LmPz0Qe
  qbridge answer 2026-07-10-where-do-receipts-go-3fa2c1 b
  qbridge answer 2026-07-10-where-do-receipts-go-3fa2c1 Finance --note "only the paper ones"
  qbridge answer 2026-07-10-delete-old-backups-91bc07 yes`,
    )
    .hook("preAction", resolveIdArgument)
    .action(answerAction);
}

/**
 * Records the answer through the judge (the CLI speaks for agents: ordinary questions only) and
 * says whether a follow-up job was written.
 */
async function answerAction(
  id: string,
  answer: string,
  options: CommonOptions & { note?: string; expect?: string },
): Promise<void> {
  await withCore(options, async (core) => {
    const verdict = await judgeAnswer(core, {
      kind: "answer",
      from: { surface: CLI_SURFACE, proof: { kind: "shell", login: undefined } },
      questionId: id,
      answer: { text: answer, note: options.note },
      version:
        options.expect === undefined
          ? { kind: "none", say: "--expect" }
          : { kind: "shown", hash: options.expect },
    });
    if (verdict.kind === "refused") throw verdict.error ?? new Error(verdict.reply);
    const { result } = verdict;
    if (options.json) return printJson(result);
    writeOut(
      result.jobRel
        ? `answered ${id}: ${result.answer.text}\nfollow-up job: ${result.jobRel}\n`
        : `answered ${id}: ${result.answer.text}\nthe waiting agent reads the answer (no follow-up job)\n`,
    );
  });
}
