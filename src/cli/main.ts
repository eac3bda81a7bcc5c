// The qbridge command line. Errors leave through one place (exit.ts) as one sentence on
// stderr with the exit code DESIGN.md gives: 0 ok, 1 usage/validation, 2 not found, 3 rejected.

import { Command, CommanderError } from "commander";
import { EXIT, reportFailure } from "./exit.ts";
import { familiesFor } from "./families.ts";
import { styleUsageErrors } from "./usage.ts";
import { packageVersion } from "./version.ts";

async function main(): Promise<void> {
  const program = new Command("qbridge")
    .description(
      "Ask the boxholder what agents cannot settle alone; every answer becomes a commit.",
    )
    .version(packageVersion(), "-V, --version")
    // Loaded with the command it serves, not at start-up (it reads the settings and the box).
    .hook("preAction", async (program, command) =>
      (await import("./question-ids.ts")).resolveIdArgument(program, command),
    )
    .exitOverride();

  // Only the family of the command named is registered (families.ts).
  for (const family of familiesFor(process.argv.slice(2))) (await family.register())(program);
  styleUsageErrors(program);

  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; usage errors were already printed by commander.
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    } else {
      reportFailure(error, process.argv.includes("--json"));
    }
  }
}

// Not top-level await: the bundle is CommonJS (scripts/build.mjs), which has none.
void main();
