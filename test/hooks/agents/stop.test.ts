// Stop from the card: where the asking agent takes it (Claude Code's and Copilot CLI's
// `interrupt: true` on a deny), its card offers Stop beside Deny, and Stop prints a deny that
// ends the agent's turn; Deny keeps its optional note ("what should it do instead?") and never
// stops. Codex fails closed on interrupt: its card never offers Stop, and its room refuses to
// write one.

import { afterEach, describe, expect, it } from "vitest";
import { InvalidInput } from "../../../src/errors.ts";
import { codex } from "../../../src/hooks/agents/codex.ts";
import { answerQuestion } from "../../../src/questions/answer.ts";
import type { Core } from "../../../src/questions/core.ts";
import { cleanupBoxes, makeBox } from "../../support/box.ts";
import { fixtureText } from "../agent-fixtures.ts";
import { ClaudePermissionOutput, CopilotPermissionOutput } from "../agent-outputs.ts";
import { filedQuestion, fixture, permissionHookInProcess } from "../hook-support.ts";

afterEach(cleanupBoxes);

/** The option ids of the filed card, and the hook's output once `option` is answered. */
async function answered(core: Core, input: string, option: string, note?: string) {
  const hook = permissionHookInProcess(core, input);
  const view = await filedQuestion(core);
  const options = (view.card.input as { options?: { id: string; label: string }[] }).options ?? [];
  const attempt = { text: option, option, ...(note ? { note } : {}) };
  await answerQuestion(core, view.id, attempt, { via: "telegram", by: "1001" });
  return { options, memo: String(view.card.memo), printed: await hook.done };
}

describe("Stop on a permission card", () => {
  it("Claude Code's card offers Stop beside Deny, and Stop prints a deny with interrupt", async () => {
    const box = await makeBox();
    const { options, memo, printed } = await answered(
      box,
      fixture("claude-permission-bash"),
      "stop",
    );
    expect(options.map((o) => o.label).slice(-2)).toEqual(["Deny", "Stop"]);
    expect(memo).toContain(`"Stop" denies it and ends Claude Code's turn.`);
    expect(memo).toContain("or what to do instead");
    const decision = ClaudePermissionOutput.parse(printed).hookSpecificOutput.decision;
    expect(decision).toEqual({
      behavior: "deny",
      message: expect.stringContaining("stopped this turn"),
      interrupt: true,
    });
  });

  it("Claude Code's Deny keeps its note and never stops the turn", async () => {
    const box = await makeBox();
    const note = "use npm ci instead";
    const { printed } = await answered(box, fixture("claude-permission-bash"), "deny", note);
    const decision = ClaudePermissionOutput.parse(printed).hookSpecificOutput.decision;
    expect(decision).toEqual({
      behavior: "deny",
      message: expect.stringContaining(`"${note}"`),
    });
  });

  it("Copilot CLI's card offers Stop, printed in its flat shape with interrupt", async () => {
    const box = await makeBox();
    const input = fixtureText("copilot-permission-bash");
    const { options, printed } = await answered(box, input, "stop");
    expect(options.map((o) => o.id)).toEqual(["allow-once", "allow-session", "deny", "stop"]);
    expect(CopilotPermissionOutput.parse(printed)).toEqual({
      behavior: "deny",
      message: expect.stringContaining("stopped this turn"),
      interrupt: true,
    });
  });

  it("Codex's card never offers Stop, and its room refuses to write an interrupt", async () => {
    const box = await makeBox();
    const { options } = await answered(box, fixture("codex-permission-bash"), "deny");
    expect(options.map((o) => o.id)).toEqual(["allow-once", "allow-session", "deny"]);
    const stop = { behavior: "deny" as const, message: "stop", interrupt: true as const };
    expect(() => codex.writePermission(stop)).toThrow(InvalidInput);
  });
});
