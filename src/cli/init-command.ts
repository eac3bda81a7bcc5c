// `qbridge init`: makes a box, or says it is one already.

import type { Command } from "commander";
import { initBox } from "../box/box.ts";
import { common } from "./box-options.ts";
import { type CommonOptions, configFor, printJson } from "./context.ts";
import { writeOut } from "./output.ts";

export function registerInitCommand(program: Command): void {
  common(program.command("init"))
    .description("make a box: a git repository with _bookkeeping/questions/ and _bookkeeping/jobs/")
    .action(initAction);
}

/** Makes what is missing of the box and prints what it made, or that it was a box already. */
async function initAction(options: CommonOptions): Promise<void> {
  const config = configFor(options);
  const done = await initBox(config.boxDir);
  if (options.json) return printJson({ box: config.boxDir, done });
  writeOut(
    done.length
      ? `${config.boxDir}: ${done.join(", ")}\n`
      : `${config.boxDir} is already a box; nothing to do\n`,
  );
}
