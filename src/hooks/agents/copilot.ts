// GitHub Copilot CLI's room: its permissionRequest input (copilot/permission-request.ts) read
// into the neutral request, read-only tools falling through to Copilot's own rules
// (copilot/tool-effect.ts), and the decision written flat as {behavior, message?, interrupt?}
// (copilot/permission-output.ts). It takes once, session, deny and stop; no changed input and
// no rules. Its hook is a file of qbridge's own (copilot/hook-file.ts): .github/hooks/
// qbridge.json in a project, ~/.copilot/hooks/qbridge.json for the user, with a timeout a
// person can answer within (Copilot's default is 30 s). Pure.

import { join } from "node:path";
import { copilotOwnFile, HOOK_FILE_NAME } from "../copilot/hook-file.ts";
import { copilotPermissionOutput } from "../copilot/permission-output.ts";
import { parseCopilotPermission } from "../copilot/permission-request.ts";
import { copilotToolEffect } from "../copilot/tool-effect.ts";
import type { AgentAsk, AgentRoom } from "./room.ts";

function readPermission(text: string): AgentAsk {
  const ask = parseCopilotPermission(text);
  const effect = copilotToolEffect(ask.tool);
  if (!effect.pages) return { kind: "fall-through", why: `${ask.tool} ${effect.why}` };
  return { kind: "permission", ask };
}

export const copilot: AgentRoom = {
  name: "copilot",
  label: "Copilot CLI",
  recognizes: (raw) => "sessionId" in raw || "toolName" in raw || "hookName" in raw,
  readPermission,
  takes: { session: true, always: false, edit: false, stop: true, questions: false, plans: false },
  writePermission: copilotPermissionOutput,
  // Its tool table's tools that run, write or fetch (Claude-format payloads carry Claude's
  // names: Bash, Edit, Write).
  grantBy: {
    bash: "command",
    powershell: "command",
    create: "file",
    edit: "file",
    write: "file",
    web_fetch: "url",
  },
  install: {
    folder: join(".copilot", "hooks"),
    projectFolder: join(".github", "hooks"),
    file: HOOK_FILE_NAME,
    own: copilotOwnFile,
    hooks: [{ event: "permissionRequest", run: "permission --agent copilot" }],
    afterInstall:
      "Copilot CLI reads a repository's .github/hooks once you trust the folder; read-only tools (view, glob, grep) are left to its own rules.",
  },
};
