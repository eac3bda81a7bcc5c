// Codex's hook inputs as Codex 0.169.0 sends them: PermissionRequest for a shell command, an MCP
// tool and apply_patch (any tool_input), and Interrupt (fixtures/codex-*.json). Each reads into
// the neutral request; the Interrupt hook prints only what Codex's output schema allows.

import { describe, expect, it } from "vitest";
import { InvalidInput } from "../../../src/errors.ts";
import { parsePermissionInput } from "../../../src/hooks/agent-input.ts";
import { permissionOutput } from "../../../src/hooks/agent-output.ts";
import { parseApplyPatch } from "../../../src/hooks/codex/apply-patch.ts";
import { interruptOutput, parseCodexInterrupt } from "../../../src/hooks/codex/interrupt.ts";
import { parseCodexPermission } from "../../../src/hooks/codex/permission-request.ts";
import { fixtureInput, fixtureText } from "../agent-fixtures.ts";
import { CodexInterruptOutput, CodexPermissionOutput } from "../agent-outputs.ts";

const BASH = "codex-permission-bash";
const MCP = "codex-permission-mcp";
const PATCH = "codex-permission-apply-patch";

function without(name: string, field: string): string {
  const { [field]: _gone, ...rest } = fixtureInput(name);
  return JSON.stringify(rest);
}

describe("Codex's PermissionRequest, any tool", () => {
  it("a shell command reads as today's parser reads it, plus the turn", () => {
    const ask = parseCodexPermission(fixtureText(BASH));
    const { agent, sessionId, cwd, tool, input, description, always, callId } = ask;
    expect({ agent, sessionId, cwd, tool, input, description, always, callId }).toEqual(
      parsePermissionInput(fixtureText(BASH), "/home/ada", "codex"),
    );
    expect(ask.turnId).toBe("019a5b2e-8a11-7c02-b6e4-5d3f9a7c2e10");
    expect(ask.subagent).toBeUndefined();
  });

  it("an MCP tool's raw arguments are accepted, where today's parser refuses them", () => {
    expect(() => parsePermissionInput(fixtureText(MCP), "codex")).toThrow(
      "tool_input.command: Required",
    );
    const ask = parseCodexPermission(fixtureText(MCP));
    expect(ask.tool).toBe("mcp__github__create_issue");
    expect(ask.input).toEqual(fixtureInput(MCP).tool_input);
    expect(ask.description).toBeUndefined();
  });

  it("apply_patch carries the patch text, which reads as the files it changes", () => {
    const ask = parseCodexPermission(fixtureText(PATCH));
    expect(ask.tool).toBe("apply_patch");
    expect(parseApplyPatch(ask.input.command as string).map((c) => c.path)).toEqual([
      "hello.txt",
      "src/app.py",
      "obsolete.txt",
    ]);
  });

  it("a subagent's request says which subagent asks; a tool input that is no object is kept", () => {
    const input = { ...fixtureInput(BASH), agent_id: "019a-child", agent_type: "worker" };
    expect(parseCodexPermission(JSON.stringify(input)).subagent).toEqual({
      id: "019a-child",
      type: "worker",
    });
    const scalar = { ...fixtureInput(BASH), tool_input: "ls" };
    expect(parseCodexPermission(JSON.stringify(scalar)).input).toEqual({ value: "ls" });
  });

  it("an input without its turn, or not JSON, is refused, naming what is wrong", () => {
    expect(() => parseCodexPermission(without(BASH, "turn_id"))).toThrow(InvalidInput);
    expect(() => parseCodexPermission(without(BASH, "turn_id"))).toThrow("turn_id: Required");
    expect(() => parseCodexPermission("not json")).toThrow("is not JSON");
  });

  it("an allow for an MCP tool prints what Codex's output schema allows", () => {
    const output = permissionOutput("codex", { behavior: "allow" });
    expect(CodexPermissionOutput.parse(output).hookSpecificOutput.decision).toEqual({
      behavior: "allow",
    });
  });
});

describe("Codex's Interrupt hook", () => {
  it("names the session and the turn that stopped", () => {
    expect(parseCodexInterrupt(fixtureText("codex-interrupt"))).toEqual({
      agent: "codex",
      sessionId: "019a5b2e-7c4d-7e21-9f3a-2b8c1d0e4f55",
      turnId: "019a5b2e-8a11-7c02-b6e4-5d3f9a7c2e10",
      cwd: "/home/ada/work/api",
    });
  });

  it("a PermissionRequest input is not an Interrupt", () => {
    expect(() => parseCodexInterrupt(fixtureText(BASH))).toThrow(
      'hook_event_name: Invalid literal value, expected "Interrupt"',
    );
  });

  it("prints nothing when nothing was withdrawn, else a system message and nothing more", () => {
    expect(interruptOutput(0)).toBeUndefined();
    expect(CodexInterruptOutput.parse(interruptOutput(2))).toEqual({
      systemMessage: "qbridge withdrew 2 questions from the phone: stopped at the computer.",
    });
  });
});
