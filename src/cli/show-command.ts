// `qbridge show ID`: the question and its outcome (the one outcome shape with --json,
// src/questions/outcome.ts).

import type { Command } from "commander";
import { questionFingerprint } from "../card/fingerprint.ts";
import { questionOutcome } from "../questions/outcome.ts";
import { loadCommitted } from "../questions/transition.ts";
import { heldUntilOf } from "../slot/attention/held-until.ts";
import { common } from "./box-options.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { outcomeLink } from "./outcome-link.ts";
import { writeOut } from "./output.ts";
import { resolveIdArgument } from "./question-ids.ts";
import { showText } from "./render.ts";

/** `qbridge show ID`: the question and its outcome. */
export async function showQuestion(id: string, options: CommonOptions): Promise<void> {
  await withCore(options, async (core, config) => {
    // Never a write half done (a killed answer the next writer undoes).
    const question = await loadCommitted(core, id);
    if (!options.json) return void writeOut(showText(question));
    const outcome = questionOutcome(question, {
      now: core.box.clock.now(),
      link: await outcomeLink(core, config),
      heldUntil: heldUntilOf(core, config.attention),
    });
    // `hash`: the version of the card an answer names (answer --expect).
    printJson({
      ...outcome,
      hash: questionFingerprint(question.card),
      rel: question.rel,
      card: question.card,
    });
  });
}

export function registerShowCommand(program: Command): void {
  common(program.command("show").argument("<id>", "the question id"))
    .description("show one question: prompt, why, options, what the box will learn, its status")
    .addHelpText(
      "after",
      "\nWith --json: the outcome (docs/AGENTS.md) with the card, its path and its version (rel, card, hash:\nwhat answer --expect names).",
    )
    .hook("preAction", resolveIdArgument)
    .action(showQuestion);
}
