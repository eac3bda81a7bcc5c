// The Claude Code scenarios of `npm run agents`: what its PermissionRequest hook is handed and
// what it takes back (Q1, Q2 of brief agent-formats.md), what happens to a hook process when
// the agent stops waiting (Q5), `-p` mode, and today's `qbridge hook` installed for real.
// Each returns its evidence: the hook inputs and what the model was told.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PLAN, probeHooks, QUESTIONS, resultOf, startClaude, TURN, waitResult } from "./claude.mjs";
import {
  boxholderAtChat,
  initBox,
  probeRuns,
  qbridge,
  questions,
  scriptDecisions,
  sleep,
} from "./scene.mjs";

const AGENT = "Claude Code";
const decided = (decision) => ({
  print: { hookSpecificOutput: { hookEventName: "PermissionRequest", decision } },
});
const ANSWERS = {
  "Which database should the service use?": "SQLite",
  "Which checks should run before a merge?": "Unit tests, Types",
};

/** Q1, Q2: allow, allow with answers, allow with the plan and acceptEdits, in plan mode. */
export async function answersAndPlan(scene, report) {
  scriptDecisions(scene, {
    permission: {
      Bash: decided({ behavior: "allow" }),
      AskUserQuestion: decided({
        behavior: "allow",
        updatedInput: { questions: QUESTIONS, answers: ANSWERS },
      }),
      ExitPlanMode: decided({
        behavior: "allow",
        updatedInput: { plan: PLAN },
        updatedPermissions: [{ type: "setMode", mode: "acceptEdits", destination: "session" }],
      }),
    },
  });
  const turns = [TURN.bash(), TURN.ask, TURN.writePlan, TURN.exitPlan, TURN.bash("after.txt")];
  const claude = await startClaude(scene, {
    turns,
    hooks: probeHooks(scene),
    args: ["--permission-mode", "plan", "--tools", "Bash,AskUserQuestion,ExitPlanMode,Write"],
  });
  await Promise.race([claude.finished, sleep(90_000)]);
  await claude.stop();
  const asked = probeRuns(scene, "permission").map((run) => run.input);
  const of = (tool) => asked.find((input) => input.tool_name === tool);
  const text = (step) => resultOf(claude, step)?.text ?? "(no result)";
  report.check(
    AGENT,
    "allow on Bash's PermissionRequest runs the command",
    /BASH-RAN/.test(text(0)),
  );
  report.check(
    AGENT,
    "allow + updatedInput {questions, answers} answers AskUserQuestion with the labels",
    text(1).includes('="SQLite"') && text(1).includes('="Unit tests, Types"'),
    text(1),
  );
  const plan = of("ExitPlanMode");
  report.check(
    AGENT,
    "ExitPlanMode's request carries tool_input.plan and planFilePath",
    plan?.tool_input?.plan === PLAN && typeof plan?.tool_input?.planFilePath === "string",
    JSON.stringify(plan?.tool_input),
  );
  report.check(
    AGENT,
    "ExitPlanMode's request carries no permission_suggestions (Q2)",
    plan !== undefined && plan.permission_suggestions === undefined,
  );
  report.check(
    AGENT,
    "allow + updatedInput {plan} approves the plan",
    /User has approved your plan/.test(text(3)),
    text(3),
  );
  const after = probeRuns(scene, "pretool")
    .map((r) => r.input)
    .at(-1);
  report.check(
    AGENT,
    "updatedPermissions setMode acceptEdits (session) switches the mode",
    after?.permission_mode === "acceptEdits",
    after?.permission_mode,
  );
  return {
    agent: "claude",
    scenario: "answers-and-plan",
    hookInputs: asked,
    results: claude.results(),
  };
}

/** Q1: a plain allow (no updatedInput) leaves Claude Code's own dialog on screen. */
export async function plainAllow(scene, report) {
  scriptDecisions(scene, {
    permission: {
      AskUserQuestion: decided({ behavior: "allow" }),
      ExitPlanMode: decided({ behavior: "allow" }),
    },
  });
  const claude = await startClaude(scene, {
    turns: [TURN.ask],
    hooks: probeHooks(scene),
    args: ["--permission-mode", "manual", "--tools", "Bash,AskUserQuestion"],
  });
  const dialog = await claude.run.waitFor(/Enter to select/, 45_000);
  const answered = await waitResult(claude, 0, 8_000);
  const screen = claude.run.screen().slice(-1500);
  await claude.stop();
  const ran = probeRuns(scene, "permission").length > 0;
  report.check(
    AGENT,
    "a plain allow on AskUserQuestion leaves its question dialog waiting at the computer",
    ran && dialog && answered === undefined,
    answered?.text,
  );
  return { agent: "claude", scenario: "plain-allow-question", screen };
}

/** Q1: a plain allow on ExitPlanMode leaves "Ready to code?" waiting at the computer. */
export async function plainAllowPlan(scene, report) {
  scriptDecisions(scene, { permission: { ExitPlanMode: decided({ behavior: "allow" }) } });
  const claude = await startClaude(scene, {
    turns: [TURN.writePlan, TURN.exitPlan],
    hooks: probeHooks(scene),
    args: ["--permission-mode", "plan", "--tools", "Bash,ExitPlanMode,Write"],
  });
  const dialog = await claude.run.waitFor(/Ready to code\?/, 45_000);
  const answered = await waitResult(claude, 1, 8_000);
  const screen = claude.run.screen().slice(-1500);
  await claude.stop();
  const ran = probeRuns(scene, "permission").some((r) => r.input.tool_name === "ExitPlanMode");
  report.check(
    AGENT,
    'a plain allow on ExitPlanMode leaves "Ready to code?" waiting at the computer',
    ran && dialog && answered === undefined,
    answered?.text,
  );
  return { agent: "claude", scenario: "plain-allow-plan", screen };
}
