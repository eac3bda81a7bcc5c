// GitHub Copilot CLI against the Anthropic stand-in: its own "bring your own key" mode
// (COPILOT_PROVIDER_BASE_URL, COPILOT_PROVIDER_TYPE=anthropic) needs no GitHub login, and
// COPILOT_OFFLINE turns off what it can; it still tries api.github.com at start, which the
// network namespace refuses. The scenario records its real permissionRequest input (Q3) and
// what it does with an allow and with no answer in `copilot -p`.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startAnthropicStandin, toolResults } from "./anthropic-standin.mjs";
import { BIN, probeCommand, probeRuns, scriptDecisions, sleep, TOOLS } from "./scene.mjs";

const AGENT = "Copilot CLI";

function hookFile(scene) {
  const entry = (label) => ({ type: "command", bash: probeCommand(scene, label), timeoutSec: 60 });
  const dir = join(scene.home, ".copilot/hooks");
  mkdirSync(dir, { recursive: true });
  const hooks = { permissionRequest: [entry("permission")], preToolUse: [entry("pretool")] };
  writeFileSync(join(dir, "probe.json"), JSON.stringify({ version: 1, hooks }, null, 2));
}

function copilotEnv(scene, url) {
  return {
    PATH: process.env.PATH,
    HOME: scene.home,
    COPILOT_OFFLINE: "1",
    COPILOT_AUTO_UPDATE: "false",
    COPILOT_PROVIDER_BASE_URL: url,
    COPILOT_PROVIDER_TYPE: "anthropic",
    COPILOT_PROVIDER_API_KEY: "standin",
    COPILOT_MODEL: "claude-sonnet-4.5",
    // The unpacked application, kept between runs (it takes seconds to unpack).
    COPILOT_PKG_CACHE_HOME: join(TOOLS, "node_modules/.cache/copilot"),
  };
}

/** A shell command the probe allows, then a new file it says nothing about. */
export async function requests(scene, report) {
  hookFile(scene);
  scriptDecisions(scene, { permission: { bash: { print: { behavior: "allow" } } } });
  const file = join(scene.project, "created.txt");
  const turns = [
    { name: "bash", input: { command: "echo BASH-RAN", description: "Say it ran" } },
    { name: "create", input: { path: file, file_text: "created\n" } },
  ];
  const standin = await startAnthropicStandin({ turns });
  const child = spawn(BIN.copilot, ["-p", "Go."], {
    cwd: scene.project,
    env: copilotEnv(scene, standin.url),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  child.stderr.on("data", () => {});
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const done = await Promise.race([exited.then(() => true), sleep(240_000).then(() => false)]);
  if (!done) child.kill("SIGKILL");
  await standin.close();
  const main = standin.requests.filter((r) => r.body.tools?.some((t) => t.name === "bash"));
  const results = toolResults(main.at(-1)?.body ?? {});
  const asked = probeRuns(scene, "permission").map((r) => r.input);
  const bash = asked.find((input) => input.toolName === "bash");
  report.check(
    AGENT,
    "permissionRequest input is {hookName, sessionId, timestamp, cwd, toolName, toolInput, permissionSuggestions}",
    Object.keys(bash ?? {})
      .sort()
      .join(",") === "cwd,hookName,permissionSuggestions,sessionId,timestamp,toolInput,toolName" &&
      bash.toolInput.command === "echo BASH-RAN",
    JSON.stringify(bash),
  );
  report.check(
    AGENT,
    'a flat {"behavior":"allow"} runs the command in `copilot -p`',
    /BASH-RAN/.test(results[0]?.text ?? ""),
    results[0]?.text,
  );
  report.check(
    AGENT,
    "no answer in `copilot -p` denies (nobody to approve)",
    asked.length === 2 && !existsSync(file) && /no interactive user/.test(results[1]?.text ?? ""),
    results[1]?.text,
  );
  return { agent: "copilot", scenario: "requests", hookInputs: asked, results, printed: out };
}
