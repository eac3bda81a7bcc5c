// Commander's own errors (an unknown option, a missing argument) in the house form: one line
// with the same "qbridge:" prefix as every other error, pointing to the command's help.

import type { Command } from "commander";
import { InvalidInput } from "../errors.ts";
import { errorJson } from "./exit.ts";
import { writeErr, writeOut } from "./output.ts";

/** The names from the program down to `command`: ["hook", "install"]. */
function pathOf(command: Command): string[] {
  const path: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) path.unshift(c.name());
  return path;
}

function helpFor(command: Command): string {
  const path = pathOf(command);
  return path.length ? `qbridge help ${path.join(" ")}` : "qbridge help";
}

/**
 * `help hook install` as `hook install --help`: commander's help command reads one name, and the
 * usage errors below send a subcommand's reader to `qbridge help PARENT NAME`. A help request
 * never runs a command: a name that is none is refused, and the words after a command that has
 * no subcommands are its arguments, which its help ignores.
 */
export function helpArgs(program: Command, args: string[]): string[] {
  const [first, ...rest] = args;
  const names = rest.filter((word) => !word.startsWith("-"));
  if (first !== "help" || names.length === 0) return args;
  let command = program;
  for (const name of names) {
    if (command.commands.length === 0 || name === "help") break;
    const sub = command.commands.find((c) => c.name() === name);
    if (!sub) {
      const named = [...pathOf(command), name].join(" ");
      throw new InvalidInput(
        `unknown command '${named}': run "${helpFor(command)}" for the commands`,
      );
    }
    command = sub;
  }
  return [...pathOf(command), "--help"];
}

/** "error: unknown option '--x'\n(Did you mean --y?)" → "unknown option '--x' (Did you mean --y?): run …". */
function usageSentence(text: string, command: Command): string {
  const sentence = text
    .replace(/^error:\s*/, "")
    .replace(/\s*\n\s*/g, " ")
    .trim()
    .replace(/\.$/, "");
  const what = command.commands.length > 0 ? "for the commands" : "for its options";
  return `${sentence}: run "${helpFor(command)}" ${what}`;
}

/** The usage error as the one stderr line every error is. */
export function usageLine(text: string, command: Command): string {
  return `qbridge: ${usageSentence(text, command)}\n`;
}

/**
 * The usage error on stderr and, when --json was asked for, as the JSON error on stdout too, as
 * every other error is printed (main.ts): a script reading stdout gets JSON, never nothing.
 */
function reportUsage(text: string, command: Command, write: (line: string) => void): void {
  if (process.argv.includes("--json")) {
    writeOut(`${JSON.stringify(errorJson(new InvalidInput(usageSentence(text, command))))}\n`);
  }
  write(usageLine(text, command));
}

/** Gives `command` and every command under it the one-line usage error. */
export function styleUsageErrors(command: Command): void {
  command.showHelpAfterError(false).configureOutput({
    // Straight to the descriptors, as every other line the CLI prints (output.ts).
    writeOut,
    writeErr,
    outputError: (text, write) => reportUsage(text, command, write),
  });
  for (const sub of command.commands) styleUsageErrors(sub);
}
