// The card Claude Code's plan (ExitPlanMode) becomes: a plan approval whose whole `request` is
// the plan, its first screen in the memo (plan-screen.ts) and the whole of it on the signed web
// page, rendered as Markdown; in the prompt whole when it is short, so a chat may approve it,
// else only where it is shown whole (the judge's rule for every request). Three options:
// Approve, Approve and accept edits for this session, Keep planning (a reply's note tells
// Claude what to change). Hidden characters in the plan are spelled out. Pure.

import { PROMPT_SHOWN_CHARS, requestInOneLine } from "../../card/agent-request.ts";
import { visibleLine, visibleLines } from "../../card/agent-text.ts";
import { formatDuration } from "../../card/duration.ts";
import { lastTwoParts } from "../../questions/permission/tool-words.ts";
import { type PlanRequest, planOptions } from "./plan-review.ts";
import { planScreen, planScreenText } from "./plan-screen.ts";

/** The plan as the card holds and shows it: hidden characters spelled out, trailing space cut. */
export function shownPlan(plan: PlanRequest): string {
  return visibleLines(plan.plan).trimEnd();
}

function promptOf(asker: string, shown: string): string {
  if (shown === "")
    return `Approve ${asker}'s plan? It sent no plan text: it asks to start coding.`;
  const whole = `Approve ${asker}'s plan: ${requestInOneLine(shown)}?`;
  if (whole.length <= PROMPT_SHOWN_CHARS) return whole;
  const lines = shown.split("\n").length;
  return `Approve ${asker}'s plan (${lines} lines)? Read it whole on the web page to approve it.`;
}

function memoOf(asker: string, plan: PlanRequest, shown: string): string {
  const file = plan.planFilePath
    ? ` Its plan file: ${visibleLine(lastTwoParts(plan.planFilePath))}.`
    : "";
  const head = `${asker} has finished planning and asks to start coding.${file}`;
  const choices = [
    "Approve: it starts coding and asks as usual.",
    '"Approve and accept edits for this session": it also edits files without asking, for the rest of this session.',
    'Keep planning: reply "c - <what to change>" and it revises the plan.',
  ].join(" ");
  const screen = shown === "" ? "(no plan text)" : planScreenText(planScreen(shown));
  return `${head}\n\n${screen}\n\n${choices}`;
}

/** The card and the whole request (the plan) it is filed with. */
export function planCard(
  plan: PlanRequest,
  asker: string,
  timeoutSeconds: number,
): { card: Record<string, unknown>; request: string } {
  const shown = shownPlan(plan);
  const card = {
    prompt: promptOf(asker, shown),
    memo: memoOf(asker, plan, shown),
    input: { type: "select", options: planOptions() },
    directive: `Nothing to do on the box: ${asker} waits on this decision and starts coding only once the plan is approved.`,
    "while-waiting": `${asker} stays in plan mode; nothing is edited.`,
    irreversible: true,
    "expires-after": formatDuration(timeoutSeconds * 1000),
    "asked-by": `${asker} (ExitPlanMode)`,
  };
  return { card, request: shown };
}
