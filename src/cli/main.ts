// The qbridge command line. Errors leave through one place (exit.ts) as one sentence on
// stderr with the exit code DESIGN.md gives: 0 ok, 1 usage/validation, 2 not found, 3 rejected.

import { Command, CommanderError } from "commander";
import { commandsFor } from "./commands.ts";
import { EXIT, reportFailure } from "./exit.ts";
import { helpArgs, styleUsageErrors } from "./usage.ts";
import { packageVersion } from "./version.ts";

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const program = new Command("qbridge")
    .description(
      "Ask the boxholder what agents cannot settle alone; every answer becomes a commit.",
    )
    .version(packageVersion(), "-V, --version")
    .exitOverride();

  // Only the command named is registered, with what it imports (commands.ts).
  for (const entry of commandsFor(args)) (await entry.register())(program);
  styleUsageErrors(program);

  try {
    await program.parseAsync(helpArgs(program, args), { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; usage errors were already printed by commander.
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    } else {
      reportFailure(error, process.argv.includes("--json"));
    }
  }
}

void main();
