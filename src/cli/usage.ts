// Commander's own errors (an unknown option, a missing argument) in the house form: one line
// with the same "qbridge:" prefix as every other error, pointing to the command's help.

import type { Command } from "commander";
import { writeErr, writeOut } from "./output.ts";

function helpFor(command: Command): string {
  const path: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) path.unshift(c.name());
  return path.length ? `qbridge help ${path.join(" ")}` : "qbridge help";
}

/** "error: unknown option '--x'\n(Did you mean --y?)" → "qbridge: unknown option '--x' (Did you mean --y?): run …". */
export function usageLine(text: string, command: Command): string {
  const sentence = text
    .replace(/^error:\s*/, "")
    .replace(/\s*\n\s*/g, " ")
    .trim()
    .replace(/\.$/, "");
  const what = command.parent ? "for its options" : "for the commands";
  return `qbridge: ${sentence}: run "${helpFor(command)}" ${what}\n`;
}

/** Gives `command` and every command under it the one-line usage error. */
export function styleUsageErrors(command: Command): void {
  command.showHelpAfterError(false).configureOutput({
    // Straight to the descriptors, as every other line the CLI prints (output.ts).
    writeOut,
    writeErr,
    outputError: (text, write) => write(usageLine(text, command)),
  });
  for (const sub of command.commands) styleUsageErrors(sub);
}
