// Codex's room: its PermissionRequest input for any tool (codex/permission-request.ts: the
// schema its binary ships; MCP tools and apply_patch included) read into the neutral request, the decision written as {"hookSpecificOutput":
// {"hookEventName": "PermissionRequest", "decision": {behavior, message?}}}, and its hook in
// .codex/hooks.json. Codex fails closed on updatedInput, updatedPermissions and interrupt
// (codex-rs/hooks/src/engine/output_parser.rs), so it takes once, session and deny only, and a
// decision carrying more is refused, never sent without it. Its Interrupt hook (codex/
// interrupt.ts) withdraws the session's open questions when the person stops the turn. Pure.

import { InvalidInput } from "../../errors.ts";
import { type AgentDecision, stops } from "../agent-decision.ts";
import { interruptOutput, parseCodexInterrupt } from "../codex/interrupt.ts";
import { parseCodexPermission } from "../codex/permission-request.ts";
import type { AgentAsk, AgentRoom } from "./room.ts";

/** Any tool's request: a shell command, an MCP tool's arguments, a patch (codex/). */
function readPermission(text: string): AgentAsk {
  return { kind: "permission", ask: parseCodexPermission(text) };
}

function writePermission(decision: AgentDecision): Record<string, unknown> {
  const carries =
    decision.behavior === "allow"
      ? Boolean(decision.updatedInput || decision.updatedPermissions?.length)
      : stops(decision);
  if (carries) {
    throw new InvalidInput(
      "Codex's PermissionRequest hook takes no changed input, no rules and no interrupt: offer Codex only allow and deny",
    );
  }
  const wire: Record<string, unknown> = { behavior: decision.behavior };
  if (decision.behavior === "deny") wire.message = decision.message;
  return { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: wire } };
}

export const codex: AgentRoom = {
  name: "codex",
  label: "Codex",
  // Codex writes a turn id and the model with every tool hook; Claude Code writes neither.
  recognizes: (raw) => "turn_id" in raw || "model" in raw,
  readPermission,
  takes: { session: true, always: false, edit: false, stop: false, questions: false, plans: false },
  writePermission,
  interrupt: { read: parseCodexInterrupt, write: interruptOutput },
  // apply_patch's command is the patch text: granted as that exact text.
  grantBy: { bash: "command", apply_patch: "command" },
  install: {
    folder: ".codex",
    file: "hooks.json",
    hooks: [
      { event: "PermissionRequest", run: "permission --agent codex" },
      // Codex runs an Interrupt hook for 3 s at most.
      { event: "Interrupt", run: "interrupt --agent codex", timeoutSeconds: 3 },
    ],
    afterInstall: "Codex runs a new hook once you trust it: open /hooks in Codex.",
    doctorNote: "Codex runs it once you trust it in /hooks",
  },
};
