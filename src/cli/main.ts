// The qbridge command line. Errors leave through one place (exit.ts) as one sentence on
// stderr with the exit code DESIGN.md gives: 0 ok, 1 usage/validation, 2 not found, 3 rejected.

import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { endQuietlyWhenOutputCloses } from "./closed-output.ts";
import { registerDoctorCommand } from "./doctor-command.ts";
import { EXIT, errorJson, exitCodeOf, messageOf } from "./exit.ts";
import { registerMcpCommand } from "./mcp-command.ts";
import { registerQuestionCommands } from "./question-commands.ts";
import { resolveIdArgument } from "./question-ids.ts";
import { registerServiceCommands } from "./service-commands.ts";
import { styleUsageErrors } from "./usage.ts";

endQuietlyWhenOutputCloses();

/** The package version, from src/cli/ (sources) or dist/ (the bundle). */
function packageVersion(): string {
  for (const up of ["../../package.json", "../package.json"]) {
    try {
      return (JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8")) as { version: string })
        .version;
    } catch {
      // not at this level; try the next
    }
  }
  return "unknown";
}

const program = new Command("qbridge")
  .description("Ask the boxholder what agents cannot settle alone; every answer becomes a commit.")
  .version(packageVersion(), "-V, --version")
  .hook("preAction", resolveIdArgument)
  .exitOverride();

registerQuestionCommands(program);
registerDoctorCommand(program);
registerServiceCommands(program);
registerMcpCommand(program);
styleUsageErrors(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version exit 0; usage errors were already printed by commander.
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    if (process.argv.includes("--json"))
      process.stdout.write(`${JSON.stringify(errorJson(error))}\n`);
    // One line per problem (settings report every problem at once), each with the prefix.
    for (const line of messageOf(error).split("\n")) process.stderr.write(`qbridge: ${line}\n`);
    process.exitCode = exitCodeOf(error);
  }
}
