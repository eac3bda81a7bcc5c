// GitHub Copilot CLI's room: its permissionRequest input (copilot/permission-request.ts) read
// into the neutral request, read-only tools falling through to Copilot's own rules
// (copilot/tool-effect.ts), and the decision written flat as {behavior, message?, interrupt?}
// (copilot/permission-output.ts). It takes once, session, deny and stop; no changed input and
// no rules. Its install target (.github/hooks/qbridge.json, its own format) is not wired yet.
// Pure.

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
};
