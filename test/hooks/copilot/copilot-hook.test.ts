// GitHub Copilot CLI's permissionRequest hook: its input in both documented formats
// (fixtures/copilot-permission-*.json) reads into the neutral request; read-only tools fall
// through while tools that change something page; the decision prints as Copilot's hooks
// reference documents it; and the hook file names a timeout a person can answer within.

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidInput } from "../../../src/errors.ts";
import type { AgentDecision } from "../../../src/hooks/agent-decision.ts";
import {
  COPILOT_DEFAULT_TIMEOUT_SECONDS,
  copilotHookFile,
  copilotHookPath,
} from "../../../src/hooks/copilot/hook-file.ts";
import { copilotPermissionOutput } from "../../../src/hooks/copilot/permission-output.ts";
import { parseCopilotPermission } from "../../../src/hooks/copilot/permission-request.ts";
import { copilotToolEffect } from "../../../src/hooks/copilot/tool-effect.ts";
import { fixtureInput, fixtureText } from "../agent-fixtures.ts";
import { CopilotPermissionOutput } from "../agent-outputs.ts";

const BASH = "copilot-permission-bash";

describe("Copilot CLI's permissionRequest input", () => {
  it("the camelCase input reads into the neutral request, its JSON-text arguments parsed", () => {
    expect(parseCopilotPermission(fixtureText(BASH))).toEqual({
      agent: "copilot",
      sessionId: "8f3c2a1e-5b7d-4e9f-a2c1-6d0b9e8f7a34",
      cwd: "/home/ada/work/api",
      tool: "bash",
      input: { command: "rm -rf dist", description: "Clean build directory" },
      description: "Clean build directory",
      always: [],
      callId: undefined,
      format: "camelCase",
    });
  });

  it("the VS Code compatible input reads into the same request", () => {
    const { format, ...vscode } = parseCopilotPermission(
      fixtureText("copilot-permission-bash-vscode"),
    );
    const { format: _camel, ...camel } = parseCopilotPermission(fixtureText(BASH));
    expect(format).toBe("vscode");
    expect(vscode).toEqual(camel);
  });

  it("arguments given as an object, none, or a text that is not JSON are all kept", () => {
    const withArgs = (toolArgs: unknown) =>
      parseCopilotPermission(JSON.stringify({ ...fixtureInput(BASH), toolArgs })).input;
    expect(withArgs({ command: "ls" })).toEqual({ command: "ls" });
    expect(withArgs(undefined)).toEqual({});
    expect(withArgs("ls -la")).toEqual({ arguments: "ls -la" });
  });

  it("an input without its session, or not an object, is refused, naming what is wrong", () => {
    const { sessionId: _gone, ...rest } = fixtureInput(BASH);
    expect(() => parseCopilotPermission(JSON.stringify(rest))).toThrow(InvalidInput);
    expect(() => parseCopilotPermission(JSON.stringify(rest))).toThrow("sessionId: Required");
    expect(() => parseCopilotPermission("[1]")).toThrow("is not one JSON object");
  });
});

describe("which tools page the phone", () => {
  it.each(["view", "glob", "grep", "Read"])("%s only reads: it falls through", (tool) => {
    expect(copilotToolEffect(tool)).toEqual({ pages: false, why: "reads" });
  });

  it("ask_user is Copilot asking at the computer: it falls through", () => {
    expect(copilotToolEffect("ask_user")).toEqual({ pages: false, why: "asks-at-the-computer" });
  });

  it.each([
    "bash",
    "Bash",
    "powershell",
    "create",
    "edit",
    "web_fetch",
    "task",
    "github-create_issue",
  ])("%s changes something, or may: it pages", (tool) => {
    expect(copilotToolEffect(tool)).toEqual({ pages: true, why: "changes" });
  });

  it("the documented view request is one that falls through", () => {
    const ask = parseCopilotPermission(fixtureText("copilot-permission-view"));
    expect(copilotToolEffect(ask.tool).pages).toBe(false);
  });
});

describe("what the hook prints for Copilot", () => {
  it("allow, deny with its message, and stop print as Copilot's decision control documents", () => {
    const allow = copilotPermissionOutput({ behavior: "allow" });
    const deny = copilotPermissionOutput({ behavior: "deny", message: "Not on main." });
    const stop = copilotPermissionOutput({ behavior: "deny", message: "Stop.", interrupt: true });
    expect(CopilotPermissionOutput.parse(allow)).toEqual({ behavior: "allow" });
    expect(CopilotPermissionOutput.parse(deny)).toEqual({
      behavior: "deny",
      message: "Not on main.",
    });
    expect(CopilotPermissionOutput.parse(stop)).toEqual({
      behavior: "deny",
      message: "Stop.",
      interrupt: true,
    });
  });

  it("an allow of a changed input or of new rules is refused, never sent without them", () => {
    const edited: AgentDecision = { behavior: "allow", updatedInput: { command: "ls" } };
    expect(() => copilotPermissionOutput(edited)).toThrow(InvalidInput);
    const rules: AgentDecision = { behavior: "allow", updatedPermissions: [{ type: "addRules" }] };
    expect(() => copilotPermissionOutput(rules)).toThrow(
      "cannot take a changed input or new rules",
    );
  });
});

describe("the hook file", () => {
  const command =
    "/usr/bin/qbridge hook permission --agent copilot --box /home/ada/box --timeout 600";

  it("is version 1 with one permissionRequest command hook and the timeout given", () => {
    expect(copilotHookFile(command, 600)).toEqual({
      version: 1,
      hooks: {
        permissionRequest: [{ type: "command", bash: command, timeoutSec: 600 }],
      },
    });
  });

  it("never leaves a person Copilot's 30 s default, or less", () => {
    expect(() => copilotHookFile(command, COPILOT_DEFAULT_TIMEOUT_SECONDS)).toThrow(InvalidInput);
    expect(() => copilotHookFile(command, 90.5)).toThrow("give --timeout in seconds");
  });

  it("lives in the repository's .github/hooks, or the user's hooks folder", () => {
    expect(copilotHookPath("project", "/home/ada", "/home/ada/work/api")).toBe(
      join("/home/ada/work/api", ".github", "hooks", "qbridge.json"),
    );
    expect(copilotHookPath("user", "/home/ada", "/x")).toBe(
      join("/home/ada", ".copilot", "hooks", "qbridge.json"),
    );
    expect(copilotHookPath("user", "/home/ada", "/x", "/opt/copilot")).toBe(
      join("/opt/copilot", "hooks", "qbridge.json"),
    );
  });
});
