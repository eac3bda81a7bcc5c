// What qbridge prints for Copilot CLI's permissionRequest hook, in the shape its hooks
// reference documents ("permissionRequest decision control"): a flat object with `behavior`
// ("allow" | "deny"), `message` (the reason fed back to the model when denying) and
// `interrupt` (with "deny", stops the agent entirely). Empty output, or {}, falls through to
// Copilot's own permission flow: a hook with no decision prints nothing. Copilot takes no
// changed input and no rules here, so an allow that carries either is refused, never sent
// without them: the person approved the changed input, not the original. Pure.

import { InvalidInput } from "../../errors.ts";
import { type AgentDecision, stops } from "../agent-decision.ts";

export function copilotPermissionOutput(decision: AgentDecision): Record<string, unknown> {
  if (decision.behavior === "allow") {
    if (decision.updatedInput || decision.updatedPermissions?.length) {
      throw new InvalidInput(
        "Copilot CLI's permissionRequest hook cannot take a changed input or new rules: offer Copilot only allow, deny and stop",
      );
    }
    return { behavior: "allow" };
  }
  return stops(decision)
    ? { behavior: "deny", message: decision.message, interrupt: true }
    : { behavior: "deny", message: decision.message };
}
