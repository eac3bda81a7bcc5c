// The Codex scenarios of `npm run agents`: the PermissionRequest inputs of a shell command, an
// apply_patch and an MCP tool, what an empty answer does, what Esc does to a waiting hook and
// whether the Interrupt hook fires (on the terminal and in `codex exec`), and today's
// `qbridge hook` installed for real. Each returns its evidence.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ASKS_AT_ITS_PROMPT, CALL, PATCH, probeHooks, startCodex, waitOutput } from "./codex.mjs";
import {
  boxholderAtChat,
  initBox,
  probeRuns,
  qbridge,
  questions,
  ROOT,
  scriptDecisions,
  sleep,
} from "./scene.mjs";

const AGENT = "Codex";
const ALLOW = {
  print: {
    hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
  },
};
const MCP_TOOL = "mcp__qbridge__withdraw_question";

function keysOf(value) {
  return Object.keys(value ?? {})
    .sort()
    .join(",");
}

/** A shell command, an MCP tool and a patch, each allowed by the probe. */
export async function requests(scene, report) {
  initBox(scene);
  scriptDecisions(scene, { permission: { Bash: ALLOW, apply_patch: ALLOW, [MCP_TOOL]: ALLOW } });
  const codex = await startCodex(scene, {
    turns: [CALL.sandboxed("sleep 3"), CALL.escalated, CALL.mcp, CALL.patch],
    hooks: probeHooks(scene),
    mcp: true,
  });
  await Promise.race([codex.finished, sleep(90_000)]);
  await sleep(500);
  await codex.stop();
  const runs = probeRuns(scene, "permission");
  checkRequests(scene, report, codex, runs);
  return {
    agent: "codex",
    scenario: "requests",
    hookInputs: runs.map((r) => r.input),
    outputs: [1, 2, 3].map(codex.outputOf),
  };
}

function checkRequests(scene, report, codex, runs) {
  const asked = runs.map((r) => r.input);
  const of = (tool) => asked.find((input) => input.tool_name === tool);
  const shell = of("Bash");
  const patch = of("apply_patch");
  const mcp = of(MCP_TOOL);
  report.check(
    AGENT,
    "an escalated shell command asks as tool_name Bash, tool_input {command, description}",
    keysOf(shell?.tool_input) === "command,description" &&
      shell.tool_input.description === CALL.escalated.arguments.justification,
    JSON.stringify(shell?.tool_input),
  );
  report.check(AGENT, "allow runs it", /SHELL-RAN/.test(codex.outputOf(1)?.output ?? ""));
  report.check(
    AGENT,
    "an MCP tool asks as mcp__<server>__<tool> with the tool's own arguments",
    JSON.stringify(mcp?.tool_input) === JSON.stringify(CALL.mcp.arguments),
    JSON.stringify(mcp),
  );
  report.check(
    AGENT,
    "allow calls the MCP tool",
    /no question/.test(codex.outputOf(2)?.output ?? ""),
  );
  report.check(
    AGENT,
    "apply_patch asks as tool_name apply_patch, tool_input {command: <the patch, final newline cut>}",
    patch?.tool_input?.command === PATCH.trimEnd() && keysOf(patch.tool_input) === "command",
    JSON.stringify(patch?.tool_input),
  );
  report.check(AGENT, "allow applies the patch", existsSync(join(scene.project, "notes.txt")));
  const fixture = JSON.parse(
    readFileSync(join(ROOT, "test/hooks/fixtures/codex-permission-bash.json"), "utf8"),
  );
  report.check(
    AGENT,
    "its PermissionRequest has the fixture's fields, no permission_suggestions",
    asked.length === 3 && asked.every((input) => keysOf(input) === keysOf(fixture)),
    asked.map(keysOf).join(" | "),
  );
  const first = runs[0]?.first;
  report.check(
    AGENT,
    "the hook is Codex's own child (no shell between), leading its own process group",
    first?.ancestry?.[0]?.command?.includes("codex") && first.pgid === first.pid,
    first?.ancestry?.[0]?.command,
  );
}

/** A hook that prints nothing: Codex asks at its own prompt. */
export async function noDecision(scene, report) {
  scriptDecisions(scene, {});
  const codex = await startCodex(scene, { turns: [CALL.escalated], hooks: probeHooks(scene) });
  const asks = await codex.run.waitFor(ASKS_AT_ITS_PROMPT, 45_000);
  await codex.stop();
  report.check(
    AGENT,
    "a PermissionRequest hook that prints nothing falls back to Codex's own approval prompt",
    asks && probeRuns(scene, "permission").length === 1,
  );
  return { agent: "codex", scenario: "no-decision" };
}

const HOLD = { holdMs: 20_000, holdThroughParentChange: true, ...ALLOW };

/** Esc on the terminal while the PermissionRequest hook waits. */
export async function escWhileHookWaits(scene, report) {
  scriptDecisions(scene, { permission: { Bash: HOLD } });
  const codex = await startCodex(scene, { turns: [CALL.escalated], hooks: probeHooks(scene) });
  const end = Date.now() + 45_000;
  while (probeRuns(scene, "permission").length === 0 && Date.now() < end) await sleep(200);
  await sleep(1_500);
  codex.run.type("\x1b");
  await sleep(4_000);
  await codex.stop();
  const [waiting] = probeRuns(scene, "permission");
  const [interrupt] = probeRuns(scene, "interrupt");
  const lastLine = waiting?.notes.at(-1);
  report.check(
    AGENT,
    "Esc kills the waiting PermissionRequest hook without a catchable signal (SIGKILL)",
    waiting !== undefined &&
      !waiting.notes.some((n) => n.signal) &&
      lastLine.at < (interrupt?.first.at ?? 0),
    JSON.stringify(waiting?.notes.slice(1, 4)),
  );
  report.check(
    AGENT,
    "the Interrupt hook fires, naming the same session and turn",
    interrupt?.input?.hook_event_name === "Interrupt" &&
      interrupt.input.session_id === waiting?.input.session_id &&
      interrupt.input.turn_id === waiting?.input.turn_id,
    JSON.stringify(interrupt?.input),
  );
  return {
    agent: "codex",
    scenario: "esc-while-hook-waits",
    hookInputs: [waiting?.input, interrupt?.input],
    waitingHookNotes: waiting?.notes.slice(1),
  };
}

/** `codex exec`: approvals never reach a hook (policy Never); SIGINT fires the Interrupt hook. */
export async function execMode(scene, report) {
  scriptDecisions(scene, { permission: { Bash: ALLOW } });
  const codex = await startCodex(scene, {
    turns: [CALL.escalated, CALL.sandboxed("sleep 20")],
    hooks: probeHooks(scene),
    exec: true,
  });
  const end = Date.now() + 45_000;
  while (!codex.steps.some((s) => s.step === 1) && Date.now() < end) await sleep(200);
  await sleep(2_000);
  codex.run.child.kill("SIGINT");
  await Promise.race([codex.run.exited, sleep(10_000)]);
  await sleep(1_000);
  await codex.stop();
  const refused = codex.outputOf(0)?.output ?? "";
  report.check(
    AGENT,
    "`codex exec` runs with approval policy Never: no PermissionRequest hook, escalation refused",
    probeRuns(scene, "permission").length === 0 && /approval policy is Never/.test(refused),
    refused,
  );
  const [interrupt] = probeRuns(scene, "interrupt");
  report.check(
    AGENT,
    "SIGINT to `codex exec` during a turn fires the Interrupt hook",
    interrupt?.input?.hook_event_name === "Interrupt",
  );
  return { agent: "codex", scenario: "exec", hookInputs: [interrupt?.input], refused };
}

/** Today's `qbridge hook install --codex --project`, answered at `qbridge chat`. */
export async function qbridgeInstalled(scene, report) {
  initBox(scene);
  qbridge(["hook", "install", "--codex", "--project", "--box", scene.box, "--timeout", "120"], {
    cwd: scene.project,
    env: { ...process.env, HOME: scene.home },
  });
  const boxholder = boxholderAtChat(scene);
  const codex = await startCodex(scene, {
    turns: [CALL.sandboxed("sleep 3"), CALL.escalated, CALL.patch, CALL.mcp],
    mcp: true,
  });
  const shellAnswered = await boxholder.answer("Allow Bash", "a");
  const shell = await waitOutput(codex, 1, 30_000);
  const patchAnswered = await boxholder.answer("Allow apply_patch", "a");
  await waitOutput(codex, 2, 30_000);
  const from = codex.run.raw().length;
  const mcpAtPrompt = await codex.run.waitFor(ASKS_AT_ITS_PROMPT, 30_000, from);
  await codex.stop();
  await boxholder.stop();
  const cards = questions(scene).map((q) => q.card.prompt);
  report.check(
    AGENT,
    "qbridge: Allow once at `qbridge chat` runs the escalated command",
    shellAnswered && /SHELL-RAN/.test(shell?.output ?? ""),
    shell?.output,
  );
  const patchCard = cards.find((prompt) => prompt.startsWith("Allow apply_patch")) ?? "(none)";
  report.note(
    AGENT,
    `qbridge today shows apply_patch as "${patchCard.slice(0, 70)}…"; Allow once ${
      patchAnswered && existsSync(join(scene.project, "notes.txt"))
        ? "applies it"
        : "did not apply it"
    }`,
  );
  report.note(
    AGENT,
    `qbridge today ${cards.some((p) => p.includes("withdraw_question")) ? "files" : "files no card for"} the MCP tool's request${
      mcpAtPrompt ? "; Codex asks at its own prompt" : ""
    }`,
  );
  return { agent: "codex", scenario: "qbridge-installed", cards };
}
