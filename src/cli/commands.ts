// The command table: every qbridge command and the module that registers it. The command line
// loads only the module of the command it names (main.ts), and that module imports what its
// command uses; the top-level help, or a name not in the table, loads them all. This is the one way the CLI
// loads code when it is needed: no other module imports lazily. A new command is one module
// and one line here; the CLI test checks each line registers the command it names.

import type { Command } from "commander";

export interface CommandEntry {
  name: string;
  register: () => Promise<(program: Command) => void>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: "init", register: async () => (await import("./init-command.ts")).registerInitCommand },
  { name: "ask", register: async () => (await import("./ask-command.ts")).registerAskCommand },
  { name: "list", register: async () => (await import("./list-command.ts")).registerListCommand },
  { name: "show", register: async () => (await import("./show-command.ts")).registerShowCommand },
  { name: "wait", register: async () => (await import("./wait-command.ts")).registerWaitCommand },
  {
    name: "withdraw",
    register: async () => (await import("./withdraw-command.ts")).registerWithdrawCommand,
  },
  {
    name: "answer",
    register: async () => (await import("./answer-command.ts")).registerAnswerCommand,
  },
  {
    name: "dismiss",
    register: async () => (await import("./dismiss-command.ts")).registerDismissCommand,
  },
  { name: "age", register: async () => (await import("./age-command.ts")).registerAgeCommand },
  {
    name: "waiting",
    register: async () => (await import("./waiting-command.ts")).registerWaitingCommand,
  },
  { name: "jobs", register: async () => (await import("./jobs-command.ts")).registerJobsCommand },
  { name: "job-done", register: async () => (await import("./job-command.ts")).registerJobCommand },
  {
    name: "extend",
    register: async () => (await import("./extend-command.ts")).registerExtendCommand,
  },
  {
    name: "doctor",
    register: async () => (await import("./doctor-command.ts")).registerDoctorCommand,
  },
  {
    name: "serve",
    register: async () => (await import("./serve-command.ts")).registerServeCommand,
  },
  { name: "pair", register: async () => (await import("./pair-command.ts")).registerPairCommand },
  { name: "web", register: async () => (await import("./web-command.ts")).registerWebCommand },
  { name: "link", register: async () => (await import("./link-command.ts")).registerLinkCommand },
  { name: "chat", register: async () => (await import("./chat-command.ts")).registerChatCommand },
  { name: "demo", register: async () => (await import("./demo-command.ts")).registerDemoCommand },
  {
    name: "stats",
    register: async () => (await import("./stats-command.ts")).registerStatsCommand,
  },
  { name: "hook", register: async () => (await import("./hook-command.ts")).registerHookCommand },
  {
    name: "grants",
    register: async () => (await import("./grants-command.ts")).registerGrantsCommand,
  },
  { name: "mcp", register: async () => (await import("./mcp-command.ts")).registerMcpCommand },
];

/**
 * The commands a command line needs: none for a bare --version, the one it names (also as
 * `help NAME …`), else all.
 */
export function commandsFor(args: readonly string[]): readonly CommandEntry[] {
  const words = args.filter((arg) => !arg.startsWith("-"));
  const name = words[0] === "help" && words.length >= 2 ? words[1] : words[0];
  if (name === undefined) {
    const versionOnly = args.length > 0 && args.every((arg) => arg === "--version" || arg === "-V");
    return versionOnly ? [] : COMMANDS;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  return entry ? [entry] : COMMANDS;
}
