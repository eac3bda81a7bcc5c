// An MCP tool call, as Claude Code and Codex send it to their PermissionRequest hooks
// (fixtures/claude-permission-mcp.json, fixtures/codex-permission-mcp.json), reads as a
// sentence with its server and tool named exactly, and its arguments fit one screen.

import { describe, expect, it } from "vitest";
import { argumentLines, mcpSentence, mcpToolOf } from "../../src/hooks/mcp-tool-sentence.ts";
import { fixtureInput } from "./agent-fixtures.ts";

function call(name: string): { tool: string; args: Record<string, unknown> } {
  const input = fixtureInput(name);
  return { tool: input.tool_name as string, args: input.tool_input as Record<string, unknown> };
}

describe("an MCP tool's name", () => {
  it.each([
    ["mcp__deploy-tools__deploy", { server: "deploy-tools", tool: "deploy" }],
    ["mcp__github__create_issue", { server: "github", tool: "create_issue" }],
    ["mcp__plugin_my-plugin_db__query", { server: "plugin_my-plugin_db", tool: "query" }],
  ])("%s names its server and its tool", (name, parts) => {
    expect(mcpToolOf(name)).toEqual(parts);
  });

  it.each(["Bash", "apply_patch", "mcp__github", "mcp____x", "mcp__github__"])(
    "%s is not an MCP tool",
    (name) => {
      expect(mcpToolOf(name)).toBeUndefined();
    },
  );
});

describe("the sentence a call asks", () => {
  it("Claude Code's deploy call reads as a sentence, never as the tool's name and JSON", () => {
    const { tool, args } = call("claude-permission-mcp");
    const sentence = mcpSentence(mcpToolOf(tool) as never, args);
    expect(sentence).toBe("Run deploy-tools' deploy on staging?");
    expect(sentence).not.toMatch(/mcp__|[{}]/);
  });

  it("Codex's create_issue call says how many arguments follow", () => {
    const { tool, args } = call("codex-permission-mcp");
    expect(mcpSentence(mcpToolOf(tool) as never, args)).toBe(
      "Run github's create_issue with 5 arguments?",
    );
  });

  it("no arguments, and one short argument, are said in words", () => {
    const deploy = { server: "deploy-tools", tool: "deploy" };
    expect(mcpSentence(deploy, {})).toBe("Run deploy-tools' deploy with no arguments?");
    expect(mcpSentence({ server: "search", tool: "find" }, { query: "flaky  test" })).toBe(
      'Run search\'s find with query "flaky test"?',
    );
  });
});

describe("the arguments on one screen", () => {
  it("each argument is a line of its own, strings as written and the rest as JSON", () => {
    const { args } = call("codex-permission-mcp");
    expect(argumentLines(args)).toEqual([
      "owner: ada",
      "repo: api",
      "title: Flaky test in session refresh",
      "body: The refresh test fails about once in twenty runs on CI.",
      'labels: ["bug","ci"]',
    ]);
  });

  it("a long value is cut with an ellipsis, and arguments past the screen are counted", () => {
    const args = Object.fromEntries(
      Array.from({ length: 15 }, (_, i) => [`arg${i}`, i === 0 ? "y".repeat(200) : i]),
    );
    const lines = argumentLines(args);
    expect(lines).toHaveLength(13);
    expect(lines[0]).toBe(`arg0: ${"y".repeat(119)}…`);
    expect(lines.at(-1)).toBe(
      `… and 3 more arguments (${JSON.stringify(args).length} characters in all)`,
    );
  });
});
