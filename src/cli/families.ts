// Which module registers which commands. The command line loads only the family of the
// command it names, so `qbridge show` never loads the web server or the bot, and
// `qbridge --version` loads no family at all; help, or a name not listed here, loads them all.
// A command missing from this table still works (through "load them all"), only slower; the
// CLI test checks the table against what the families register.

import type { Command } from "commander";

export interface Family {
  commands: readonly string[];
  register: () => Promise<(program: Command) => void>;
}

export const FAMILIES: readonly Family[] = [
  {
    commands: [
      "init",
      "ask",
      "list",
      "show",
      "wait",
      "answer",
      "dismiss",
      "withdraw",
      "age",
      "waiting",
      "jobs",
    ],
    register: async () => (await import("./question-commands.ts")).registerQuestionCommands,
  },
  {
    commands: ["job-done"],
    register: async () => (await import("./job-command.ts")).registerJobCommand,
  },
  {
    commands: ["extend"],
    register: async () => (await import("./extend-command.ts")).registerExtendCommand,
  },
  {
    commands: ["doctor"],
    register: async () => (await import("./doctor-command.ts")).registerDoctorCommand,
  },
  {
    commands: ["serve", "pair", "web", "link", "chat", "demo"],
    register: async () => (await import("./service-commands.ts")).registerServiceCommands,
  },
  {
    commands: ["stats"],
    register: async () => (await import("./stats-command.ts")).registerStatsCommand,
  },
  {
    commands: ["hook"],
    register: async () => (await import("./hook-command.ts")).registerHookCommand,
  },
  {
    commands: ["grants"],
    register: async () => (await import("./grants-command.ts")).registerGrantsCommand,
  },
  {
    commands: ["mcp"],
    register: async () => (await import("./mcp-command.ts")).registerMcpCommand,
  },
];

/** The families a command line needs: none for a bare --version, one for a known command. */
export function familiesFor(args: readonly string[]): readonly Family[] {
  const name = args.find((arg) => !arg.startsWith("-"));
  if (name === undefined) {
    const versionOnly = args.length > 0 && args.every((arg) => arg === "--version" || arg === "-V");
    return versionOnly ? [] : FAMILIES;
  }
  const family = FAMILIES.find((f) => f.commands.includes(name));
  return family ? [family] : FAMILIES;
}
