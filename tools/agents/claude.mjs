// Claude Code against the Anthropic stand-in: how to start it with nothing but loopback (no
// onboarding, no telemetry, no auto mode, whose safety check would need Anthropic's servers), on
// a terminal for its dialogs or with `-p`, and the scripted turns the scenarios share.

import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startAnthropicStandin, toolResults } from "./anthropic-standin.mjs";
import { BIN, probeCommand } from "./scene.mjs";
import { onTerminal } from "./terminal.mjs";

const KEY = "sk-ant-api03-standin-000000000000000000000000000000000000";

export const QUESTIONS = [
  {
    question: "Which database should the service use?",
    header: "Database",
    multiSelect: false,
    options: [
      { label: "PostgreSQL", description: "A server" },
      { label: "SQLite", description: "A file" },
    ],
  },
  {
    question: "Which checks should run before a merge?",
    header: "Checks",
    multiSelect: true,
    options: [
      { label: "Unit tests", description: "vitest" },
      { label: "Lint", description: "biome" },
      { label: "Types", description: "tsc" },
    ],
  },
];
export const PLAN = "# Plan\n\n1. Add the table.\n2. Write the migration.\n";

export const TURN = {
  bash: (file = "bash-ran.txt") => ({
    name: "Bash",
    input: { command: `echo ran > ${file} && echo BASH-RAN`, description: "Write a marker file" },
  }),
  ask: { name: "AskUserQuestion", input: { questions: QUESTIONS } },
  /** Writes the plan where plan mode's reminder says the plan file goes. */
  writePlan: (body) => {
    const found = JSON.stringify(body.messages).match(/create your plan at (\S+?\.md)/);
    return { name: "Write", input: { file_path: found?.[1] ?? "/nonexistent.md", content: PLAN } };
  },
  exitPlan: { name: "ExitPlanMode", input: {} },
};

/** A hook entry of Claude Code's settings. */
export function hookEntry(command, timeout = 60) {
  return [{ hooks: [{ type: "command", command, timeout }] }];
}

/** The probe as the PermissionRequest hook (and a silent PreToolUse recorder). */
export function probeHooks(scene, timeout = 60) {
  return {
    PermissionRequest: hookEntry(probeCommand(scene, "permission"), timeout),
    PreToolUse: hookEntry(probeCommand(scene, "pretool"), timeout),
  };
}

/** User settings and state: onboarding done, the key approved, the project trusted. */
function prepareHome(scene, hooks) {
  mkdirSync(join(scene.home, ".claude"), { recursive: true });
  const settings = { permissions: { disableAutoMode: "disable" }, useAutoModeDuringPlan: false };
  if (hooks) settings.hooks = hooks;
  writeFileSync(join(scene.home, ".claude/settings.json"), JSON.stringify(settings, null, 2));
  const project = { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true };
  const state = {
    hasCompletedOnboarding: true,
    theme: "dark",
    numStartups: 5,
    customApiKeyResponses: { approved: [KEY.slice(-20)], rejected: [] },
    projects: { [scene.project]: project },
  };
  writeFileSync(join(scene.home, ".claude.json"), JSON.stringify(state));
}

function claudeEnv(scene, url) {
  return {
    PATH: process.env.PATH,
    HOME: scene.home,
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_BUG_COMMAND: "1",
  };
}

/**
 * Starts Claude Code in the scene: `hooks` go into the user settings (undefined: none, for a
 * project that has its own); `print` runs `claude -p`, else it runs on a terminal. Resolves
 * `finished` once the model's script is used up (the closing turn was asked for).
 */
export async function startClaude(scene, { turns, hooks, args = [], print = false }) {
  prepareHome(scene, hooks);
  let finish;
  const finished = new Promise((resolve) => {
    finish = resolve;
  });
  const standin = await startAnthropicStandin({
    turns,
    onStep: (step) => step >= turns.length && finish(true),
  });
  const env = claudeEnv(scene, standin.url);
  const run = print
    ? printed(scene, ["-p", "Go.", "--output-format", "stream-json", "--verbose", ...args], env)
    : onTerminal(BIN.claude, ["Go.", ...args], { cwd: scene.project, env });
  const mainLoop = () =>
    standin.requests.filter((r) => r.body.tools?.some((t) => t.name === "Bash"));
  return {
    run,
    standin,
    finished,
    /** The tool results of the last main-loop request, by tool_use_id. */
    results: () => toolResults(mainLoop().at(-1)?.body ?? {}),
    async stop() {
      await run.stop();
      await standin.close();
    },
  };
}

function printed(scene, args, env) {
  const child = spawn(BIN.claude, args, {
    cwd: scene.project,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  child.stderr.on("data", () => {});
  const exited = new Promise((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? signal)),
  );
  return {
    child,
    exited,
    raw: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** The result text Claude Code gave the model for scripted step `step`. */
export function resultOf(claude, step) {
  return claude.results().find((r) => r.tool_use_id === `toolu_standin_${step}`);
}

/** Waits up to `ms` for the result of step `step`; undefined if none came. */
export async function waitResult(claude, step, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const found = resultOf(claude, step);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  return undefined;
}
