// `qbridge hook permission|elicitation|install|doctor`: the commands coding agents run as their
// hooks, and the two that set them up and check them. A hook prints only the agent's decision
// JSON on stdout (nothing when nobody decided) and ends 0; a failure is one sentence on
// stderr and exit 1, which both agents take as "ask at your own screen", never as consent.

import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { InvalidInput } from "../errors.ts";
import { AGENT_NAMES, AGENTS, type Agent } from "../hooks/agent-input.ts";
import { doctorLines, doctorOk, hookPlaces, probePlaces, serviceHealth } from "../hooks/doctor.ts";
import { runElicitationHook } from "../hooks/elicitation-hook.ts";
import { hookEntries } from "../hooks/install.ts";
import { type HookLifetime, hookLifetime } from "../hooks/lifetime.ts";
import { DEFAULT_HOOK_TIMEOUT_SECONDS, runPermissionHook } from "../hooks/permission-hook.ts";
import { isProbe, probeAnswer } from "../hooks/probe.ts";
import { installInto, settingsPath } from "../hooks/settings-file.ts";
import { type CommonOptions, configFor, printJson, withCore } from "./context.ts";
import { EXIT } from "./exit.ts";
import { readStdinUntil, writeErr, writeOut } from "./output.ts";

interface HookOptions extends CommonOptions {
  agent?: string;
  timeout?: string;
}

interface InstallOptions extends CommonOptions {
  claude?: boolean;
  codex?: boolean;
  user?: boolean;
  project?: boolean;
  timeout?: string;
}

function timeoutOf(given: string | undefined): number {
  if (given === undefined) return DEFAULT_HOOK_TIMEOUT_SECONDS;
  const seconds = Number(given);
  if (!Number.isInteger(seconds) || seconds < 2 || seconds > 86_400) {
    throw new InvalidInput(
      `--timeout ${given} is not a number of seconds from 2 to 86400: give the hook's timeout from the agent's settings`,
    );
  }
  return seconds;
}

function agentOf(given: string | undefined): Agent | undefined {
  if (given === undefined) return undefined;
  if (!(AGENTS as readonly string[]).includes(given)) {
    throw new InvalidInput(`--agent ${given} is not an agent qbridge knows: claude or codex`);
  }
  return given as Agent;
}

const print = (value: Record<string, unknown>) => writeOut(`${JSON.stringify(value)}\n`);

/** The launcher the installed hooks run: this package's bin/qbridge.cjs, by absolute path. */
function launcherPath(): string {
  for (const up of ["../../bin/qbridge.cjs", "../bin/qbridge.cjs"]) {
    const path = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(path)) return path;
  }
  return "qbridge";
}

function common(command: Command): Command {
  return command.option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box)");
}

/** A subcommand's options with the parent's (--box and --json given anywhere on the line). */
function all<T>(command: Command): T {
  return command.optsWithGlobals() as T;
}

/** Registers `qbridge hook` and its four subcommands. */
export function registerHookCommand(program: Command): void {
  // The box and --json are read by the subcommands too (commander gives them to the parent).
  const hook = program
    .command("hook")
    .option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box)")
    .option("--json", "print machine-readable JSON (install, doctor)")
    .description("coding-agent hooks: permission prompts and MCP forms answered on the phone");
  hook.addHelpText("after", HOOK_HELP);

  common(hook.command("permission"))
    .description("a PermissionRequest hook: ask the owner, print the agent's decision")
    .option("--agent <agent>", "claude or codex (default: told from the input's shape)")
    .option("--timeout <seconds>", "the hook's timeout in the agent's settings (default 600)")
    .action(permissionAction);

  common(hook.command("elicitation"))
    .description("Claude Code's Elicitation hook: an MCP server's form answered on the phone")
    .option("--timeout <seconds>", "the hook's timeout in the agent's settings (default 600)")
    .action(elicitationAction);

  common(hook.command("install"))
    .description("write the hook entries into Claude Code's or Codex's settings")
    .option("--claude", "install for Claude Code")
    .option("--codex", "install for Codex")
    .option("--user", "in your own settings (default: ~/.claude or ~/.codex)")
    .option("--project", "in this project's settings (.claude/ or .codex/ here)")
    .option("--timeout <seconds>", "how long a hook waits for the owner (default 600)")
    .action(installAction);

  common(hook.command("doctor"))
    .description(
      "are the hooks installed and working, in the box of the service that brings them to the phone?",
    )
    .action(doctorAction);
}

/**
 * Runs a hook for its whole life: the signals it ends on are handled from its first moment,
 * reading the agent's input included (a signal there ends it with nothing read or filed).
 * `qbridge hook doctor`'s probe is answered with the box asked in; nothing is filed.
 */
async function asHook(
  options: HookOptions,
  timeoutSeconds: number,
  run: (text: string, lifetime: HookLifetime) => Promise<void>,
): Promise<void> {
  const lifetime = hookLifetime(timeoutSeconds);
  try {
    const text = await readStdinUntil(lifetime.signal);
    if (text === undefined) return;
    if (isProbe(text)) await withCore(options, async (core) => print({ ...probeAnswer(core) }));
    else await run(text, lifetime);
  } finally {
    lifetime.dispose();
  }
}

const tell = (line: string) => writeErr(line);

/** `qbridge hook permission`: asks the owner and prints the agent's decision. */
async function permissionAction(_options: HookOptions, command: Command): Promise<void> {
  const options = all<HookOptions>(command);
  const agent = agentOf(options.agent);
  const timeoutSeconds = timeoutOf(options.timeout);
  await asHook(options, timeoutSeconds, async (text, lifetime) => {
    const run = { agent, timeoutSeconds, lifetime, print, tell };
    await withCore(options, (core) => runPermissionHook(core, text, run), true);
  });
}

/** `qbridge hook elicitation`: has the owner fill in an MCP server's form on the phone. */
async function elicitationAction(_options: HookOptions, command: Command): Promise<void> {
  const options = all<HookOptions>(command);
  const timeoutSeconds = timeoutOf(options.timeout);
  await asHook(options, timeoutSeconds, async (text, lifetime) => {
    const run = { timeoutSeconds, lifetime, print, tell };
    await withCore(options, (core) => runElicitationHook(core, text, run), true);
  });
}

/** `qbridge hook install`: writes the hook entries into one agent's settings file. */
async function installAction(_options: InstallOptions, command: Command): Promise<void> {
  const options = all<InstallOptions>(command);
  if (Boolean(options.claude) === Boolean(options.codex)) {
    throw new InvalidInput("say which agent: qbridge hook install --claude, or --codex");
  }
  if (options.user && options.project) {
    throw new InvalidInput("choose one of --user and --project");
  }
  const agent: Agent = options.claude ? "claude" : "codex";
  const timeoutSeconds = timeoutOf(options.timeout);
  const box = resolve(configFor(options).boxDir);
  const scope = options.project ? "project" : "user";
  const path = settingsPath(agent, scope, homedir(), process.cwd());
  const entries = hookEntries(agent, launcherPath(), box, timeoutSeconds);
  const result = installInto(path, entries, timeoutSeconds);
  if (options.json) return printJson({ agent, scope, box, ...result });
  if (!result.changed) {
    writeOut(
      `${AGENT_NAMES[agent]}: the hooks are installed already in ${path}; nothing changed\n`,
    );
    return;
  }
  const saved = result.backup ? ` (the old file is kept as ${result.backup})` : "";
  writeOut(`${AGENT_NAMES[agent]}: wrote ${path}${saved}\n${result.diff.join("\n")}\n`);
  if (agent === "codex")
    writeOut("Codex runs a new hook once you trust it: open /hooks in Codex.\n");
}

/** `qbridge hook doctor`: are the hooks installed, is the service up; usage exit when not. */
async function doctorAction(_options: CommonOptions, command: Command): Promise<void> {
  const options = all<CommonOptions>(command);
  const config = configFor(options);
  const host = config.web.host.includes(":") ? `[${config.web.host}]` : config.web.host;
  const [places, service] = await Promise.all([
    probePlaces(hookPlaces(process.cwd())),
    serviceHealth(`http://${host}:${config.web.port}`),
  ]);
  const report = { places, service };
  if (options.json) printJson(report);
  else writeOut(`${doctorLines(report).join("\n")}\n`);
  if (!doctorOk(report)) process.exitCode = EXIT.usage;
}

const HOOK_HELP = `
Claude Code and Codex ask permission (and Claude Code fills in MCP servers' forms) through
hooks: commands they run with the request as JSON on standard input. These hooks file one
question in the box, wait for your answer on the phone, and print the agent's decision.

  qbridge hook install --claude          Claude Code, in ~/.claude/settings.json
  qbridge hook install --claude --project   in .claude/settings.json of this project
  qbridge hook install --codex           Codex, in ~/.codex/hooks.json (trust it in /hooks)
  qbridge hook doctor                    are they installed; is "qbridge serve" running?

A permission asks: Allow once, Allow for this session (this agent session may run the same
command, or touch the same folder, without asking again: "qbridge grants" lists and revokes
these), Always allow (when the agent offers a rule: it keeps the rule itself), Deny (reply
"<letter> - why" to tell the agent why). With Claude Code a reply can change a command first.
When the agent stops waiting (you answered at the computer, it was interrupted, its hook timed
out) the question is withdrawn and the phone says so. Permissions write no follow-up job.`;
