// The entry of the lean bundle (dist/short.cjs): the short command lines agents run as
// processes many times a day (short-args.ts says which), without the command-line parser and
// the other commands' code. Each command is the same function the full CLI runs (show, wait,
// list, ask, the id resolution, the error report); only the parsing of its plain form is this
// file's.
// The full CLI (main.ts) is the entry for every other command line, and for these too when the
// sources run.

import { reportFailure } from "./exit.ts";
import { type ShortCommand, shortCommand } from "./short-args.ts";

/** What the launcher sends here: `--version` it answers itself. */
type BundleCommand = Exclude<ShortCommand, { name: "version" }>;

/** Which bundle this entry is built into (scripts/build.mjs): dist/ask.cjs runs only `ask`,
 * dist/short.cjs every other short command. The build drops the branches of the other. */
declare const QBRIDGE_LEAN_BUNDLE: "ask" | "short";

/** The launcher sent a command line to the bundle that does not run it. */
function wrongBundle(name: string): never {
  throw new Error(`dist/${QBRIDGE_LEAN_BUNDLE}.cjs does not run ${name} (src/cli/launch.ts)`);
}

// Imported when run, not with the bundle: each command's modules (and the card schemas they
// build as they load) are set up only for the command that needs them. The bundle is chosen
// with a constant, so that each bundle holds only its own commands' imports.
function run(command: BundleCommand): Promise<void> {
  return QBRIDGE_LEAN_BUNDLE === "ask" ? ask(command) : readingCommand(command);
}

async function ask(command: BundleCommand): Promise<void> {
  if (command.name !== "ask") return wrongBundle(command.name);
  // The card comes on standard input: the plain form sets none of its fields with flags.
  const noCardFlags = { option: [], context: [], task: [] };
  return (await import("./ask-command.ts")).askCommand({ ...noCardFlags, ...command.options });
}

async function readingCommand(command: BundleCommand): Promise<void> {
  if (command.name === "list") {
    return (await import("./list-command.ts")).listQuestions(command.options);
  }
  if (command.name === "ask") return wrongBundle(command.name);
  const id = (await import("./question-ids.ts")).fullQuestionId(command.id, command.options);
  const outcomes = await import("./outcome-commands.ts");
  if (command.name === "show") return outcomes.showQuestion(id, command.options);
  return outcomes.waitForQuestion(id, command.options);
}

const command = shortCommand(process.argv.slice(2));
// The launcher sends only the command lines short-args.ts reads here, and answers --version.
if (command === undefined || command.name === "version") {
  throw new Error("dist/short.cjs runs only show, wait, list and ask (short-args.ts)");
}
// Done once run: its output is written (synchronously, output.ts), its ledger closed, nothing
// of it left pending. It exits then, with its exit code, instead of letting node take its heap
// down page by page and first run the collection V8 had scheduled (about 2 ms of each show).
run(command)
  .catch((error: unknown) => reportFailure(error, command.options.json === true))
  .then(() => process.exit());
