// What every scenario of `npm run agents` stands on: a temp folder with a home, a project and a
// box of its own; the probe hook's records; `qbridge` from this checkout; the boxholder at a
// `qbridge chat` on a pseudo-terminal; and the report, one line per check. Nothing here reaches
// past 127.0.0.1 (scripts/agents.mjs runs everything in a network namespace of its own).

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { onTerminal } from "./terminal.mjs";

export const TOOLS = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(TOOLS, "../..");
export const QBRIDGE = join(ROOT, "bin/qbridge.cjs");
export const PROBE = join(TOOLS, "probe-hook.mjs");
export const BIN = {
  claude: join(TOOLS, "node_modules/@anthropic-ai/claude-code-linux-x64/claude"),
  codex: join(
    TOOLS,
    "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
  ),
  copilot: join(TOOLS, "node_modules/@github/copilot-linux-x64/copilot"),
};

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A fresh temp folder: home/, project/, records/ (the probe's), box path (not made). */
export function newScene(name) {
  const dir = mkdtempSync(join(tmpdir(), `qbridge-agents-${name}-`));
  const scene = {
    dir,
    home: join(dir, "home"),
    project: join(dir, "project"),
    records: join(dir, "records"),
    box: join(dir, "box"),
  };
  for (const path of [scene.home, scene.project, scene.records])
    mkdirSync(path, { recursive: true });
  return scene;
}

/** The probe's command line for `label`, and its scripted decisions for the scene. */
export function probeCommand(scene, label) {
  return `node ${PROBE} ${scene.records} ${label}`;
}

export function scriptDecisions(scene, decisions) {
  writeFileSync(join(scene.records, "decisions.json"), JSON.stringify(decisions));
}

/** Every run of the probe under `label`: {input, notes}, first started first. */
export function probeRuns(scene, label) {
  return readdirSync(scene.records)
    .filter((f) => f.startsWith(`${label}-`) && f.endsWith(".jsonl"))
    .map((f) => {
      const notes = readFileSync(join(scene.records, f), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      return { input: notes[0]?.input, first: notes[0], notes };
    })
    .sort((a, b) => a.first.at - b.first.at);
}

export function qbridge(args, options = {}) {
  return execFileSync(process.execPath, [QBRIDGE, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    ...options,
  });
}

/** The box, made with `qbridge init`. */
export function initBox(scene) {
  qbridge(["init", "--box", scene.box]);
  return scene.box;
}

/** Every question of the box, `{id, card}`, as `qbridge list --json --all` lists them. */
export function questions(scene) {
  const listed = JSON.parse(qbridge(["list", "--json", "--all", "--box", scene.box]));
  return [...listed.pending, ...listed.archive];
}

/**
 * The boxholder at `qbridge chat` on a terminal: `answer(prompt, reply)` waits for a question
 * whose prompt contains `prompt` and types `reply` then `yes` (a permission is irreversible, so
 * the chat asks to confirm).
 */
export function boxholderAtChat(scene) {
  const chat = onTerminal(
    process.execPath,
    [QBRIDGE, "chat", "--box", scene.box, "--watch-ms", "200"],
    {
      cwd: scene.dir,
      env: { PATH: process.env.PATH, HOME: scene.home },
    },
  );
  return {
    chat,
    async answer(prompt, reply, ms = 60_000) {
      const from = chat.raw().length;
      if (!(await chat.waitFor(new RegExp(escaped(prompt)), ms, from))) return false;
      const asked = chat.raw().length;
      chat.type(`${reply}\n`);
      if (!(await chat.waitFor(/Type yes or no/, 10_000, asked))) return false;
      chat.type("yes\n");
      return chat.waitFor(/Recorded/, 10_000, asked);
    },
    stop: () => chat.stop(),
  };
}

export function escaped(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One line per check; `failed` counts the expectations that did not hold. */
export function newReport() {
  const report = {
    failed: 0,
    lines: [],
    check(agent, sentence, holds, detail = "") {
      const line = `${holds ? "ok  " : "FAIL"} ${agent}: ${sentence}${!holds && detail ? ` (${detail})` : ""}`;
      if (!holds) report.failed += 1;
      report.lines.push(line);
      process.stdout.write(`${line}\n`);
    },
    note(agent, sentence) {
      const line = `note ${agent}: ${sentence}`;
      report.lines.push(line);
      process.stdout.write(`${line}\n`);
    },
  };
  return report;
}
