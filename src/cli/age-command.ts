// `qbridge age`: one aging sweep: expires questions past their time, reports nudges due.

import type { Command } from "commander";
import { ageQuestions } from "../questions/aging.ts";
import { common } from "./box-options.ts";
import { type CommonOptions, printJson, progress, withCore } from "./context.ts";
import { writeOut } from "./output.ts";

export function registerAgeCommand(program: Command): void {
  common(program.command("age"))
    .description("run the aging sweep once: expire questions past their time, report nudges due")
    .action(ageAction);
}

/** Runs one aging sweep and reports what expired and which nudges are due (serve sends them). */
async function ageAction(options: CommonOptions): Promise<void> {
  await withCore(options, async (core) => {
    const report = await ageQuestions(core, {
      onProgress: options.json ? undefined : progress("aging"),
    });
    if (options.json) return printJson(report);
    writeOut(
      `checked ${report.checked} pending; expired ${report.expired.length}; nudges due ${report.nudgeDue.length} (sent by qbridge serve)\n`,
    );
    for (const id of report.expired) writeOut(`expired ${id}\n`);
    for (const id of report.nudgeDue) writeOut(`nudge due ${id}\n`);
  });
}
