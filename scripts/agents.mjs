// `npm run agents`: the real coding agents (Claude Code, Codex, GitHub Copilot CLI, pinned in
// tools/agents/ and installed there on first use, apart from the project) driven against
// loopback model stand-ins, with a recording hook and with today's `qbridge hook`, checking
// what each agent hands a hook and what it takes back. One line per check; exits non-zero when
// an expectation fails. Not part of `npm test` (minutes, and large binaries).
//
// Everything runs in a network namespace of its own (unshare: a user and a network namespace)
// where only loopback exists, so no agent reaches anything past 127.0.0.1 whatever it tries.
//
//   npm run agents [-- claude codex copilot] [-- --save-evidence]
// With --save-evidence, what each scenario saw is written to tools/agents/evidence/.

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const tools = join(root, "tools/agents");
const args = process.argv.slice(2);

function enterNamespace() {
  const inner = 'ip link set lo up && exec "$0" "$@"';
  const result = spawnSync(
    "unshare",
    [
      "--user",
      "--map-root-user",
      "--net",
      "sh",
      "-c",
      inner,
      process.execPath,
      ...process.argv.slice(1),
    ],
    { stdio: "inherit", env: { ...process.env, QBRIDGE_AGENTS_NETNS: "1" } },
  );
  if (result.error) {
    process.stderr.write(
      `agents: cannot make a network namespace (${result.error.message}): install util-linux's unshare and iproute2's ip\n`,
    );
    process.exit(1);
  }
  process.exit(result.status ?? 1);
}

if (process.env.QBRIDGE_AGENTS_NETNS !== "1") {
  if (!existsSync(join(tools, "node_modules/@openai/codex-linux-x64"))) {
    process.stdout.write("agents: installing the agents into tools/agents/ (once)\n");
    execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: tools, stdio: "inherit" });
  }
  enterNamespace();
}

const { newReport, newScene } = await import("../tools/agents/scene.mjs");
const claude = await import("../tools/agents/claude-scenarios.mjs");
const codex = await import("../tools/agents/codex-scenarios.mjs");
const copilot = await import("../tools/agents/copilot-scenarios.mjs");
const inputs = await import("../tools/agents/qbridge-inputs.mjs");

const SCENARIOS = [
  ["claude", "answers-and-plan", claude.answersAndPlan],
  ["claude", "plain-allow-question", claude.plainAllow],
  ["claude", "plain-allow-plan", claude.plainAllowPlan],
  ["claude", "esc-while-hook-waits", claude.escWhileHookWaits],
  ["claude", "hook-timeout", claude.hookTimeout],
  ["claude", "print-mode", claude.printMode],
  ["claude", "print-interrupted", claude.printInterrupted],
  ["claude", "qbridge-installed", claude.qbridgeInstalled],
  ["claude", "qbridge-esc", claude.qbridgeEsc],
  ["codex", "requests", codex.requests],
  ["codex", "no-decision", codex.noDecision],
  ["codex", "esc-while-hook-waits", codex.escWhileHookWaits],
  ["codex", "exec", codex.execMode],
  ["codex", "qbridge-installed", codex.qbridgeInstalled],
  ["copilot", "requests", copilot.requests],
];

const agents = args.filter((a) => !a.startsWith("--"));
const chosen = SCENARIOS.filter(([agent]) => agents.length === 0 || agents.includes(agent));
const save = args.includes("--save-evidence");
const evidenceDir = join(tools, "evidence");
if (save) mkdirSync(evidenceDir, { recursive: true });

const report = newReport();
const seen = [];
const started = Date.now();
for (const [agent, name, scenario] of chosen) {
  const scene = newScene(`${agent}-${name}`);
  const t0 = Date.now();
  try {
    const evidence = await scenario(scene, report);
    seen.push(evidence);
    if (save) {
      const file = join(evidenceDir, `${agent}-${name}.json`);
      writeFileSync(file, `${JSON.stringify(evidence, null, 2)}\n`);
    }
  } catch (error) {
    report.check(agent, `scenario ${name} ran to its end`, false, error.stack ?? String(error));
  } finally {
    if (!process.env.AGENTS_KEEP) rmSync(scene.dir, { recursive: true, force: true });
  }
  process.stdout.write(`     (${agent} ${name}: ${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
}
await inputs.replay(seen, report, save ? evidenceDir : undefined);
const total = ((Date.now() - started) / 1000).toFixed(0);
process.stdout.write(
  `agents: ${report.failed === 0 ? "passed" : `${report.failed} failed`} in ${total} s\n`,
);
process.exit(report.failed === 0 ? 0 : 1);
