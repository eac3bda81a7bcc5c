// The Claude Code scenarios of `npm run agents`: what its PermissionRequest hook is handed and
// what it takes back (Q1, Q2 of brief agent-formats.md), what happens to a hook process when
// the agent stops waiting (Q5), `-p` mode, and today's `qbridge hook` installed for real.
// Each returns its evidence: the hook inputs and what the model was told.

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
// Its dialogs, as they appear on a terminal it redraws piecemeal.
const PROCEED = /want\s*to\s*proceed/;
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
  checkAnswersAndPlan(scene, report, claude, asked);
  return {
    agent: "claude",
    scenario: "answers-and-plan",
    hookInputs: asked,
    results: claude.results(),
  };
}

function checkAnswersAndPlan(scene, report, claude, asked) {
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
  const dialog = await claude.run.waitFor(/Enter\s*to\s*select/, 45_000);
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
  const dialog = await claude.run.waitFor(/Ready\s*to\s*code/, 45_000);
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

/** The probe's life from its first line: signals, parent changes, its last line. */
function lifeOf(run) {
  const start = run.first.at;
  const signal = run.notes.find((n) => n.signal);
  return {
    hookParent: run.first.ancestry?.[0]?.command,
    sameGroupAsParent: run.first.pgid === run.first.ppid,
    signal: signal?.signal,
    signalAtMs: signal ? signal.at - start : undefined,
    parentAtSignal: signal?.ppid,
    lastLineAfterSignalMs: signal ? run.notes.at(-1).at - signal.at : undefined,
    notes: run.notes.slice(1),
  };
}

const HOLD = { holdMs: 20_000, holdThroughParentChange: true, ...decided({ behavior: "allow" }) };

/** Q5: Esc at Claude Code's own dialog while the hook still waits. */
export async function escWhileHookWaits(scene, report) {
  scriptDecisions(scene, { permission: { Bash: HOLD } });
  const claude = await startClaude(scene, {
    turns: [TURN.bash()],
    hooks: probeHooks(scene),
    args: ["--permission-mode", "manual", "--tools", "Bash"],
  });
  const dialog = await claude.run.waitFor(PROCEED, 45_000);
  await sleep(1_500);
  claude.run.type("\x1b");
  await sleep(4_000);
  await claude.stop();
  const [run] = probeRuns(scene, "permission");
  const life = run ? lifeOf(run) : {};
  report.check(AGENT, "its own dialog is on screen while the PermissionRequest hook runs", dialog);
  report.check(
    AGENT,
    "the hook runs as `/bin/sh -c <command>`, leading its own process group",
    /^\/bin\/sh -c /.test(life.hookParent ?? "") && life.sameGroupAsParent,
    life.hookParent,
  );
  report.check(
    AGENT,
    "Esc at its dialog sends SIGTERM to the hook's group; the shell dies, the hook is reparented",
    life.signal === "SIGTERM" && life.parentAtSignal === 1,
    JSON.stringify(life.notes?.slice(0, 3)),
  );
  report.check(
    AGENT,
    "a hook that outlives SIGTERM is killed about a second later (SIGKILL)",
    life.lastLineAfterSignalMs !== undefined && life.lastLineAfterSignalMs < 3_000,
    `last line ${life.lastLineAfterSignalMs} ms after SIGTERM`,
  );
  return { agent: "claude", scenario: "esc-while-hook-waits", hookLife: life };
}

/** Q5: the hook's own timeout (3 s here). */
export async function hookTimeout(scene, report) {
  scriptDecisions(scene, { permission: { Bash: HOLD } });
  const claude = await startClaude(scene, {
    turns: [TURN.bash()],
    hooks: probeHooks(scene, 3),
    args: ["--permission-mode", "manual", "--tools", "Bash"],
  });
  await claude.run.waitFor(PROCEED, 45_000);
  await sleep(6_000);
  const ran = resultOf(claude, 0);
  await claude.stop();
  const [run] = probeRuns(scene, "permission");
  const life = run ? lifeOf(run) : {};
  report.check(
    AGENT,
    "at the hook's timeout the hook's group gets SIGTERM and the command waits for the person",
    life.signal === "SIGTERM" && life.signalAtMs < 4_000 && ran === undefined,
    `${life.signal} at ${life.signalAtMs} ms; ${ran?.text ?? "no result"}`,
  );
  return { agent: "claude", scenario: "hook-timeout", hookLife: life };
}

/** `claude -p`: the hook still runs; no decision means no; the question tools are off. */
export async function printMode(scene, report) {
  scriptDecisions(scene, {});
  const claude = await startClaude(scene, {
    turns: [TURN.bash(), TURN.ask],
    hooks: probeHooks(scene),
    args: ["--tools", "Bash,AskUserQuestion,ExitPlanMode"],
    print: true,
  });
  await Promise.race([claude.run.exited, sleep(60_000)]);
  await claude.stop();
  const [run] = probeRuns(scene, "permission");
  const bash = resultOf(claude, 0);
  const ask = resultOf(claude, 1);
  report.check(
    AGENT,
    "`claude -p` runs the PermissionRequest hook",
    run?.input?.tool_name === "Bash",
  );
  report.check(
    AGENT,
    "`claude -p`: a hook that prints nothing leaves the command denied, not run",
    bash?.is_error === true && !/BASH-RAN/.test(bash.text),
    bash?.text,
  );
  report.check(
    AGENT,
    "`claude -p`: AskUserQuestion is not available at all (no hook runs for it)",
    /No such tool available: AskUserQuestion/.test(ask?.text ?? ""),
    ask?.text,
  );
  return {
    agent: "claude",
    scenario: "print-mode",
    hookInputs: [run?.input],
    results: claude.results(),
  };
}

/** Q5: SIGINT to `claude -p` while the hook waits. */
export async function printInterrupted(scene, report) {
  scriptDecisions(scene, { permission: { Bash: HOLD } });
  const claude = await startClaude(scene, {
    turns: [TURN.bash()],
    hooks: probeHooks(scene),
    args: ["--tools", "Bash"],
    print: true,
  });
  const end = Date.now() + 45_000;
  while (probeRuns(scene, "permission").length === 0 && Date.now() < end) await sleep(200);
  await sleep(1_000);
  claude.run.child.kill("SIGINT");
  await Promise.race([claude.run.exited, sleep(10_000)]);
  await sleep(3_000);
  await claude.stop();
  const [run] = probeRuns(scene, "permission");
  const life = run ? lifeOf(run) : {};
  report.check(
    AGENT,
    "SIGINT to `claude -p` sends SIGTERM to the waiting hook's group",
    life.signal === "SIGTERM",
    JSON.stringify(life.notes?.slice(0, 3)),
  );
  return { agent: "claude", scenario: "print-interrupted", hookLife: life };
}

/** Today's `qbridge hook install --claude --project`, answered at `qbridge chat`. */
export async function qbridgeInstalled(scene, report) {
  initBox(scene);
  qbridge(["hook", "install", "--claude", "--project", "--box", scene.box, "--timeout", "120"], {
    cwd: scene.project,
    env: { ...process.env, HOME: scene.home },
  });
  const boxholder = boxholderAtChat(scene);
  const claude = await startClaude(scene, {
    turns: [TURN.bash(), TURN.ask],
    args: ["--permission-mode", "manual", "--tools", "Bash,AskUserQuestion"],
  });
  const bashAnswered = await boxholder.answer("Allow Bash", "a");
  const bash = await waitResult(claude, 0, 30_000);
  const askAnswered = await boxholder.answer("Allow AskUserQuestion", "a");
  const dialog = await claude.run.waitFor(/Enter\s*to\s*select/, 20_000);
  const ask = await waitResult(claude, 1, 8_000);
  await claude.stop();
  await boxholder.stop();
  const cards = questions(scene).map((q) => q.card.prompt);
  const askCard = cards.find((prompt) => prompt.startsWith("Allow AskUserQuestion")) ?? "";
  report.check(
    AGENT,
    "qbridge: Allow once at `qbridge chat` runs the command",
    bashAnswered && /BASH-RAN/.test(bash?.text ?? ""),
    bash?.text,
  );
  report.note(
    AGENT,
    `qbridge today shows AskUserQuestion as "${askCard.slice(0, 60)}…"; Allow once ` +
      `${askAnswered && dialog && !ask ? "leaves Claude Code's own question dialog waiting (no answers sent)" : `gave: ${ask?.text}`}`,
  );
  return { agent: "claude", scenario: "qbridge-installed", cards, results: claude.results() };
}

/** Today's qbridge hook when the person presses Esc at the computer: the card is withdrawn. */
export async function qbridgeEsc(scene, report) {
  initBox(scene);
  qbridge(["hook", "install", "--claude", "--project", "--box", scene.box, "--timeout", "120"], {
    cwd: scene.project,
    env: { ...process.env, HOME: scene.home },
  });
  const claude = await startClaude(scene, {
    turns: [TURN.bash()],
    args: ["--permission-mode", "manual", "--tools", "Bash"],
  });
  const end = Date.now() + 45_000;
  while (questions(scene).length === 0 && Date.now() < end) await sleep(300);
  await claude.run.waitFor(PROCEED, 20_000);
  claude.run.type("\x1b");
  const pressed = Date.now();
  let status;
  while (Date.now() - pressed < 10_000) {
    status = questions(scene)[0]?.card.status;
    if (status === "withdrawn") break;
    await sleep(300);
  }
  const seconds = ((Date.now() - pressed) / 1000).toFixed(1);
  await claude.stop();
  // Claude Code sends SIGKILL about a second after SIGTERM: the withdrawal races it.
  report.note(
    AGENT,
    status === "withdrawn"
      ? `qbridge: Esc at the computer withdrew the waiting card in ${seconds} s`
      : `qbridge: Esc at the computer left the card ${status} after ${seconds} s (the hook was killed before its withdrawal was committed)`,
  );
  return { agent: "claude", scenario: "qbridge-esc", status, seconds };
}
