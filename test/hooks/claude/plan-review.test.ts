// Claude Code's ExitPlanMode, fed as documented (fixtures/claude-permission-exitplanmode*.json):
// the plan is a plan to read (its first screen for a chat, what is left out counted), and the
// three decisions go back as Claude Code takes them, through today's Claude output, checked.

import { describe, expect, it } from "vitest";
import { InvalidAnswer } from "../../../src/errors.ts";
import { permissionOutput } from "../../../src/hooks/agent-output.ts";
import {
  ACCEPT_EDITS_FOR_SESSION,
  PLAN_CHOICES,
  type PlanRequest,
  parsePlanRequest,
  planDecision,
  planOptions,
} from "../../../src/hooks/claude/plan-review.ts";
import { planScreen, planScreenText } from "../../../src/hooks/claude/plan-screen.ts";
import { fixtureInput } from "../agent-fixtures.ts";
import { ClaudePermissionOutput } from "../agent-outputs.ts";

function request(name: string): PlanRequest {
  const input = fixtureInput(name);
  const suggestions = (input.permission_suggestions ?? []) as Record<string, unknown>[];
  return parsePlanRequest(input.tool_input as Record<string, unknown>, suggestions);
}

function printed(plan: PlanRequest, choice: Parameters<typeof planDecision>[1], note?: string) {
  const output = permissionOutput("claude", planDecision(plan, choice, note));
  return ClaudePermissionOutput.parse(output).hookSpecificOutput.decision;
}

const PLAIN = "claude-permission-exitplanmode";
const OFFERED = "claude-permission-exitplanmode-accept-edits";

describe("ExitPlanMode's plan and its choices", () => {
  it("reads the plan and its file, and offers Approve and Keep planning", () => {
    const plan = request(PLAIN);
    expect(plan.plan.startsWith("## Refactor auth\n\n1. Extract the session check")).toBe(true);
    expect(plan.planFilePath).toBe("/Users/ada/.claude/plans/refactor-auth.md");
    expect(planOptions(plan).map((o) => o.label)).toEqual(["Approve", "Keep planning"]);
  });

  it("offers accept edits for this session only where the input's suggestions offer exactly it", () => {
    expect(planOptions(request(OFFERED)).map((o) => o.label)).toEqual([
      "Approve",
      "Approve and accept edits for this session",
      "Keep planning",
    ]);
    const elsewhere = parsePlanRequest({ plan: "x" }, [
      { ...ACCEPT_EDITS_FOR_SESSION, destination: "localSettings" },
    ]);
    expect(elsewhere.offersAcceptEdits).toBe(false);
  });

  it("a plan Claude Code sent without text is an empty plan", () => {
    expect(parsePlanRequest({}, []).plan).toBe("");
  });
});

describe("the plan's decisions as Claude Code takes them", () => {
  it("Approve allows with the input echoed unchanged", () => {
    const plan = request(PLAIN);
    expect(printed(plan, PLAN_CHOICES.approve)).toEqual({
      behavior: "allow",
      updatedInput: fixtureInput(PLAIN).tool_input,
    });
  });

  it("Approve and accept edits adds the session's setMode update", () => {
    expect(printed(request(OFFERED), PLAN_CHOICES.acceptEdits)).toEqual({
      behavior: "allow",
      updatedInput: fixtureInput(OFFERED).tool_input,
      updatedPermissions: [{ type: "setMode", mode: "acceptEdits", destination: "session" }],
    });
  });

  it("accept edits where the input does not offer it is refused", () => {
    expect(() => planDecision(request(PLAIN), PLAN_CHOICES.acceptEdits)).toThrow(InvalidAnswer);
  });

  it("Keep planning denies with the note as the message and never stops the turn", () => {
    const decision = printed(request(PLAIN), PLAN_CHOICES.keepPlanning, " Keep the admin page ");
    expect(decision).toEqual({
      behavior: "deny",
      message: "The owner wants you to keep planning: Keep the admin page",
    });
    expect(printed(request(PLAIN), PLAN_CHOICES.keepPlanning)).toEqual({
      behavior: "deny",
      message: "The owner wants you to keep planning: revise the plan and present it again.",
    });
  });
});

describe("a plan's first screen for a chat", () => {
  const lines = Array.from({ length: 30 }, (_, i) => `${i + 1}. Step number ${i + 1}`);
  const long = lines.join("\n");

  it("a plan that fits is shown whole, nothing counted as left out", () => {
    const plan = request(PLAIN).plan;
    expect(planScreen(plan)).toEqual({ head: plan.trimEnd(), elided: undefined });
    expect(planScreenText(planScreen(plan))).toBe(plan.trimEnd());
  });

  it("a long plan shows its first whole lines and counts the lines and characters left out", () => {
    const screen = planScreen(long, { lines: 20, chars: 1_000 });
    const rest = lines.slice(20).join("\n");
    expect(screen.head).toBe(lines.slice(0, 20).join("\n"));
    expect(screen.elided).toEqual({ lines: 10, chars: rest.length });
    expect(planScreenText(screen).split("\n").at(-1)).toBe(
      `… 10 more lines (${rest.length} characters): the whole plan is on the web page.`,
    );
  });

  it("the character limit stops it too, at a whole line", () => {
    const screen = planScreen(long, { lines: 20, chars: 60 });
    expect(screen.head).toBe(lines.slice(0, 3).join("\n"));
    expect(screen.elided?.lines).toBe(27);
  });

  it("a first line longer than the screen is cut with an ellipsis", () => {
    const line = "x".repeat(50);
    const screen = planScreen(`${line}\nsecond`, { lines: 5, chars: 21 });
    expect(screen.head).toBe(`${"x".repeat(20)}…`);
    expect(screen.elided).toEqual({ lines: 1, chars: `${"x".repeat(30)}\nsecond`.length });
    expect(planScreenText(planScreen(line, { lines: 5, chars: 21 }))).toContain(
      "… the rest of a line (30 characters)",
    );
  });
});
