// Story: Claude Code sends "always allow" suggestions with its permission request. Only what
// one tap may write reaches the card and the decision: an allow rule with content, a mode
// other than bypassPermissions or dontAsk, a directory inside the project. The card states
// each in words (the rule, where it is saved), and "Always allow" writes exactly those; a
// request whose suggestions are all dangerous offers no "Always allow" at all.

import { afterEach, describe, expect, it } from "vitest";
import { optionsOf } from "../../src/card/question.ts";
import { cleanupBoxes, makeBox } from "../support/box.ts";
import {
  ClaudePermissionOutput,
  filedQuestion,
  fixture,
  permissionHookInProcess,
  pick,
} from "./hook-support.ts";

afterEach(cleanupBoxes);

const HOME = "/Users/ada";
const DANGEROUS = [
  {
    type: "addRules",
    rules: [{ toolName: "Bash" }],
    behavior: "allow",
    destination: "userSettings",
  },
  {
    type: "addRules",
    rules: [{ toolName: "Bash", ruleContent: "*" }],
    behavior: "allow",
    destination: "userSettings",
  },
  { type: "setMode", mode: "bypassPermissions", destination: "userSettings" },
  { type: "setMode", mode: "dontAsk", destination: "session" },
  {
    type: "addDirectories",
    directories: ["/", HOME, "/etc", "../other"],
    destination: "userSettings",
  },
  { type: "replaceRules", rules: [], behavior: "allow", destination: "userSettings" },
  {
    type: "addRules",
    rules: [{ toolName: "Bash", ruleContent: "ls" }],
    behavior: "allow",
    destination: "managedSettings",
  },
];
const SAFE = [
  {
    type: "addRules",
    rules: [{ toolName: "Bash", ruleContent: "npm test" }],
    behavior: "allow",
    destination: "localSettings",
  },
  { type: "setMode", mode: "acceptEdits", destination: "session" },
  { type: "addDirectories", directories: ["docs"], destination: "projectSettings" },
];

function request(suggestions: unknown[]): string {
  return fixture("claude-permission-bash", {
    tool_input: { command: "npm test", description: "Run the tests" },
    permission_suggestions: suggestions,
  });
}

describe("Always allow offers only what the card states", () => {
  it("a dangerous suggestion never reaches the decision; the card states every rule it writes", async () => {
    const box = await makeBox();
    const hook = permissionHookInProcess(box, request([...DANGEROUS, ...SAFE]), { home: HOME });
    const view = await filedQuestion(box);
    expect(view.card.memo).toContain(
      "\"Always allow\" saves the allow rule Bash(npm test) in this project's .claude/settings.local.json; a switch to accept-edits mode (file edits without asking) for this session only; access to docs in this project's .claude/settings.json (shared with the repository).",
    );
    await pick(box, "allow-always");
    const { decision } = ClaudePermissionOutput.parse(await hook.done).hookSpecificOutput;
    expect(decision).toEqual({ behavior: "allow", updatedPermissions: SAFE });
  });

  it("with only dangerous suggestions there is no Always allow, and the card says nothing of one", async () => {
    const box = await makeBox();
    const hook = permissionHookInProcess(box, request(DANGEROUS), { home: HOME });
    const view = await filedQuestion(box);
    expect(optionsOf(view.card).map((o) => o.label)).not.toContain("Always allow");
    expect(view.card.memo).not.toContain("Always allow");
    await pick(box, "allow-once");
    const { decision } = ClaudePermissionOutput.parse(await hook.done).hookSpecificOutput;
    expect(decision).toEqual({ behavior: "allow" });
  });
});
