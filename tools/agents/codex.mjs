// Codex against the Responses stand-in: a temporary CODEX_HOME whose config.toml names the
// stand-in as a custom model provider (with a one-model catalog so that apply_patch is offered
// and MCP tools are listed rather than searched), no update check, the project trusted, on a
// terminal (its approvals only exist there: `codex exec` runs with approval policy Never) or as
// `codex exec`. Hooks run without the /hooks trust review (--dangerously-bypass-hook-trust).

import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { callOutputs, startOpenAIStandin } from "./openai-standin.mjs";
import { BIN, probeCommand, QBRIDGE } from "./scene.mjs";
import { onTerminal } from "./terminal.mjs";

const MODEL = "standin-model";

export const PATCH =
  "*** Begin Patch\n*** Add File: notes.txt\n+first line\n+second line\n*** End Patch\n";
export const CALL = {
  escalated: {
    name: "exec_command",
    arguments: {
      cmd: "echo ran > shell-ran.txt && echo SHELL-RAN",
      sandbox_permissions: "require_escalated",
      justification: "Write a marker file?",
    },
  },
  sandboxed: (cmd) => ({ name: "exec_command", arguments: { cmd, yield_time_ms: 30_000 } }),
  patch: { custom: true, name: "apply_patch", input: PATCH },
  mcp: {
    namespace: "mcp__qbridge",
    name: "withdraw_question",
    arguments: { id: "nope-1234", reason: "a stand-in call" },
  },
};

function catalog() {
  return {
    models: [
      {
        slug: MODEL,
        display_name: "Stand-in",
        description: "The loopback stand-in of npm run agents.",
        apply_patch_tool_type: "freeform",
        shell_type: "shell_command",
        supports_search_tool: false,
        supports_parallel_tool_calls: false,
        prefer_websockets: false,
        use_responses_lite: false,
        support_verbosity: false,
        default_verbosity: "low",
        input_modalities: ["text"],
        truncation_policy: { mode: "tokens", limit: 10000 },
        context_window: 272000,
        max_context_window: 272000,
        default_reasoning_level: "medium",
        supported_reasoning_levels: [{ effort: "medium", description: "medium" }],
        default_reasoning_summary: "none",
        supports_reasoning_summaries: false,
        visibility: "list",
        supported_in_api: true,
        priority: 1,
        experimental_supported_tools: [],
        base_instructions:
          "You are Codex. (The loopback stand-in of npm run agents scripts the turns.)",
      },
    ],
  };
}

function configToml(scene, url, { sandbox, mcp }) {
  const lines = [
    `model = "${MODEL}"`,
    `model_provider = "standin"`,
    `approval_policy = "on-request"`,
    `sandbox_mode = "${sandbox}"`,
    `check_for_update_on_startup = false`,
    `model_catalog_json = "${join(scene.home, ".codex/catalog.json")}"`,
    "",
    `[projects."${scene.project}"]`,
    `trust_level = "trusted"`,
    "",
    "[model_providers.standin]",
    `name = "Stand-in"`,
    `base_url = "${url}"`,
    `env_key = "STANDIN_API_KEY"`,
    `wire_api = "responses"`,
    "request_max_retries = 0",
    "stream_max_retries = 0",
  ];
  if (mcp) {
    lines.push("", "[mcp_servers.qbridge]", `command = "${process.execPath}"`);
    lines.push(`args = ["${QBRIDGE}", "mcp", "--box", "${scene.box}"]`);
  }
  return `${lines.join("\n")}\n`;
}

/** The probe as PermissionRequest, PreToolUse (silent) and Interrupt hook, in hooks.json form. */
export function probeHooks(scene, timeout = 60) {
  const entry = (label) => [
    { hooks: [{ type: "command", command: probeCommand(scene, label), timeout }] },
  ];
  return {
    hooks: {
      PermissionRequest: entry("permission"),
      PreToolUse: entry("pretool"),
      Interrupt: entry("interrupt"),
    },
  };
}

/**
 * Starts Codex in the scene. `hooks` (hooks.json's content) goes into CODEX_HOME (undefined:
 * none, for a project that has its own); `exec` runs `codex exec`, else it runs on a terminal.
 */
export async function startCodex(
  scene,
  { turns, hooks, sandbox = "read-only", mcp = false, exec = false },
) {
  const codexHome = join(scene.home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(join(codexHome, "catalog.json"), JSON.stringify(catalog()));
  if (hooks) writeFileSync(join(codexHome, "hooks.json"), JSON.stringify(hooks, null, 2));
  let finish;
  const finished = new Promise((resolve) => {
    finish = resolve;
  });
  const steps = [];
  const standin = await startOpenAIStandin({
    turns,
    onStep: (step) => {
      steps.push({ step, at: Date.now() });
      if (step >= turns.length) finish(true);
    },
  });
  writeFileSync(join(codexHome, "config.toml"), configToml(scene, standin.url, { sandbox, mcp }));
  const env = {
    PATH: process.env.PATH,
    HOME: scene.home,
    CODEX_HOME: codexHome,
    STANDIN_API_KEY: "standin",
  };
  const flags = ["--dangerously-bypass-hook-trust"];
  const run = exec
    ? execRun(scene, ["exec", "--skip-git-repo-check", ...flags, "--json", "Go."], env)
    : onTerminal(BIN.codex, [...flags, "Go."], { cwd: scene.project, env });
  const mainLoop = () =>
    standin.requests.filter((r) => r.body.tools?.some((t) => t.name === "exec_command"));
  return {
    run,
    standin,
    steps,
    finished,
    /** The output Codex gave the model for scripted step `step`, if it came. */
    outputOf: (step) =>
      callOutputs(mainLoop().at(-1)?.body ?? {}).find((o) => o.call_id === `call_standin_${step}`),
    async stop() {
      await run.stop();
      await standin.close();
    },
  };
}

function execRun(scene, args, env) {
  const child = spawn(BIN.codex, args, {
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

/** Codex's terminal title and state report once it asks at its own prompt. */
export const ASKS_AT_ITS_PROMPT = /7501;state=blocked:app=codex:kind=permission/;

/** Waits up to `ms` for step `step`'s output. */
export async function waitOutput(codex, step, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const found = codex.outputOf(step);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  return undefined;
}
