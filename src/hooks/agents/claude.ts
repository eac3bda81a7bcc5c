// Claude Code's room: its PermissionRequest input (code.claude.com/docs/en/hooks; the Agent
// SDK's PermissionRequestHookInput) read into the neutral request, the decision written as
// {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {behavior,
// updatedInput?, updatedPermissions?} | {behavior: "deny", message, interrupt?}}}, and its hooks
// in .claude/settings.json (PermissionRequest and Elicitation). It takes every answer: once,
// session, always (its own suggestions), an edited input, stop (deny + interrupt), its
// AskUserQuestion questions and its ExitPlanMode plans. Claude Code has no Interrupt hook: its
// cards follow it by the hook process's own lifetime. Pure.

import { type AgentDecision, stops } from "../agent-decision.ts";
import { parsePermissionInput } from "../agent-input.ts";
import { parseQuestionSet } from "../claude/ask-user-question.ts";
import { parsePlanRequest } from "../claude/plan-review.ts";
import type { AgentAsk, AgentRoom } from "./room.ts";

function readPermission(text: string, home: string): AgentAsk {
  const ask = parsePermissionInput(text, home, "claude");
  if (ask.tool === "AskUserQuestion") {
    return { kind: "questions", ask, set: parseQuestionSet(ask.input) };
  }
  if (ask.tool === "ExitPlanMode") return { kind: "plan", ask, plan: parsePlanRequest(ask.input) };
  return { kind: "permission", ask };
}

function writePermission(decision: AgentDecision): Record<string, unknown> {
  const wire: Record<string, unknown> = { behavior: decision.behavior };
  if (decision.behavior === "deny") {
    wire.message = decision.message;
    if (stops(decision)) wire.interrupt = true;
  } else {
    if (decision.updatedInput) wire.updatedInput = decision.updatedInput;
    if (decision.updatedPermissions?.length) wire.updatedPermissions = decision.updatedPermissions;
  }
  return { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: wire } };
}

export const claude: AgentRoom = {
  name: "claude",
  label: "Claude Code",
  fallback: true,
  readPermission,
  takes: { session: true, always: true, edit: true, stop: true, questions: true, plans: true },
  writePermission,
  // Claude Code's tools (its permissions docs); Glob and Grep search a folder's whole tree, so
  // they keep their exact input.
  grantBy: {
    bash: "command",
    read: "file",
    edit: "file",
    multiedit: "file",
    write: "file",
    notebookedit: "file",
    webfetch: "url",
  },
  install: {
    folder: ".claude",
    file: "settings.json",
    hooks: [
      { event: "PermissionRequest", run: "permission --agent claude" },
      { event: "Elicitation", run: "elicitation" },
    ],
  },
};
