// The qbridge command line. Errors leave through one place (exit.ts) as one sentence on
// stderr with the exit code DESIGN.md gives: 0 ok, 1 usage/validation, 2 not found, 3 rejected.

import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { EXIT, errorJson, exitCodeOf, messageOf } from "./exit.ts";
import { familiesFor } from "./families.ts";
import { writeErr, writeOut } from "./output.ts";
import { styleUsageErrors } from "./usage.ts";

/** Set by the build in the bundle (scripts/build.mjs); absent when the sources run. */
declare const QBRIDGE_BUILT_VERSION: string | undefined;

/** The package version: the build's, or read from package.json when the sources run. */
function packageVersion(): string {
  if (typeof QBRIDGE_BUILT_VERSION === "string") return QBRIDGE_BUILT_VERSION;
  for (const up of ["../../package.json", "../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8")) as {
        name?: string;
        version: string;
      };
      if (pkg.name === "question-bridge") return pkg.version;
    } catch {
      // not at this level; try the next
    }
  }
  return "unknown";
}

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

  // Only the commands this command line can reach are loaded (start-up is most of a short command).
  for (const family of familiesFor(process.argv.slice(2))) (await family.register())(program);
  styleUsageErrors(program);

  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; usage errors were already printed by commander.
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    } else {
      if (process.argv.includes("--json")) writeOut(`${JSON.stringify(errorJson(error))}\n`);
      // One line per problem (settings report every problem at once), each with the prefix.
      for (const line of messageOf(error).split("\n")) writeErr(`qbridge: ${line}\n`);
      process.exitCode = exitCodeOf(error);
    }
  }
}

// Not top-level await: the bundle is CommonJS (launch.ts), which has none.
void main();
