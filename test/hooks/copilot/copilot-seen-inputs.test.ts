// GitHub Copilot CLI's permissionRequest input as Copilot CLI 1.0.102 sent it, seen with the
// real binary (tools/agents/evidence/copilot-requests.json; fixtures/copilot-permission-*-seen
// .json): `hookName`, `toolInput` as an object and `permissionSuggestions`, neither documented
// format. It reads into the neutral request; the `edit` Copilot asks for a new file pages.

import { describe, expect, it } from "vitest";
import { parseCopilotPermission } from "../../../src/hooks/copilot/permission-request.ts";
import { copilotToolEffect } from "../../../src/hooks/copilot/tool-effect.ts";
import { fixtureInput, fixtureText } from "../agent-fixtures.ts";

describe("Copilot CLI's permissionRequest input, as seen", () => {
  it("a shell command reads from toolInput into the neutral request", () => {
    expect(parseCopilotPermission(fixtureText("copilot-permission-bash-seen"))).toEqual({
      agent: "copilot",
      sessionId: "0e7f5722-be22-4c87-8383-24b238400a82",
      cwd: "/home/ada/work/api",
      tool: "bash",
      input: { command: "echo BASH-RAN" },
      description: undefined,
      always: [],
      callId: undefined,
      format: "camelCase",
    });
  });

  it("a new file asks as edit with its path and diff, and pages the phone", () => {
    const ask = parseCopilotPermission(fixtureText("copilot-permission-edit-seen"));
    expect(ask.tool).toBe("edit");
    expect(ask.input).toEqual(
      (fixtureInput("copilot-permission-edit-seen") as { toolInput: unknown }).toolInput,
    );
    expect(copilotToolEffect(ask.tool)).toEqual({ pages: true, why: "changes" });
  });

  it("an input that names another hook is refused, naming the field", () => {
    const other = { ...fixtureInput("copilot-permission-bash-seen"), hookName: "preToolUse" };
    expect(() => parseCopilotPermission(JSON.stringify(other))).toThrow("hookName");
  });
});
