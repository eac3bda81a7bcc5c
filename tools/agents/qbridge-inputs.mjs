// Today's `qbridge hook permission` fed each PermissionRequest input the real agents sent in
// this run: it either files a question (its prompt is reported, then the hook is ended) or
// refuses the input (its sentence is reported). Reports, never fails: these are the breaks
// issue 35 is about.

import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { initBox, newScene, QBRIDGE, questions, sleep } from "./scene.mjs";

const LABEL = { claude: "Claude Code", codex: "Codex", copilot: "Copilot CLI" };

function permissionInputs(seen) {
  const found = [];
  for (const evidence of seen) {
    for (const input of evidence?.hookInputs ?? []) {
      const event = input?.hook_event_name ?? input?.hookName;
      if (event === "PermissionRequest" || event === "permissionRequest") {
        found.push({ agent: evidence.agent, tool: input.tool_name ?? input.toolName, input });
      }
    }
  }
  const once = new Map(found.map((f) => [`${f.agent} ${f.tool}`, f]));
  return [...once.values()];
}

async function replayOne(scene, { agent, input }) {
  const before = new Set(questions(scene).map((q) => q.id));
  const hook = spawn(
    process.execPath,
    [QBRIDGE, "hook", "permission", "--agent", agent, "--box", scene.box, "--timeout", "60"],
    { cwd: scene.dir, stdio: ["pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  hook.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  hook.stdin.end(JSON.stringify(input));
  const exited = new Promise((resolve) => hook.on("exit", (code) => resolve(code)));
  const end = Date.now() + 15_000;
  let filed;
  while (Date.now() < end && hook.exitCode === null) {
    filed = questions(scene).find((q) => !before.has(q.id));
    if (filed) break;
    await sleep(250);
  }
  if (hook.exitCode === null) hook.kill("SIGTERM");
  const code = await exited;
  if (filed) return { files: filed.card.prompt };
  return { refuses: stderr.trim().split("\n")[0], exitCode: code };
}

export async function replay(seen, report, evidenceDir) {
  const inputs = permissionInputs(seen);
  if (inputs.length === 0) return;
  const scene = newScene("replay");
  initBox(scene);
  const outcomes = [];
  try {
    for (const item of inputs) {
      const outcome = await replayOne(scene, item);
      outcomes.push({ agent: item.agent, tool: item.tool, ...outcome });
      const said = outcome.files
        ? `files "${outcome.files.slice(0, 90)}${outcome.files.length > 90 ? "…" : ""}"`
        : `refuses it (exit ${outcome.exitCode}): ${outcome.refuses}`;
      report.note(
        LABEL[item.agent] ?? item.agent,
        `qbridge hook permission on its real ${item.tool} request ${said}`,
      );
    }
  } finally {
    rmSync(scene.dir, { recursive: true, force: true });
  }
  if (evidenceDir) {
    writeFileSync(
      join(evidenceDir, "qbridge-replay.json"),
      `${JSON.stringify(outcomes, null, 2)}\n`,
    );
  }
}
