// A hook's permission request as the core's one permission question (src/questions/
// permission/): the neutral request, the answers the asking agent's room takes (an edit only
// for a command, "Always allow" only where the agent suggested rules), and the decision the
// boxholder's choice becomes. Only a recorded allow allows; silence is never consent; "Always
// allow" writes exactly the updates the card states. Pure.

import type { QuestionOutcome } from "../questions/outcome.ts";
import { permissionChoice } from "../questions/permission/decision.ts";
import type { PermissionOffers, PermissionRequest } from "../questions/permission/request.ts";
import type { AgentDecision } from "./agent-decision.ts";
import type { PermissionAsk } from "./agent-input.ts";
import type { AgentRoom } from "./agents/room.ts";
import { alwaysWords } from "./always-allow.ts";
import { patternWords } from "./grant-pattern.ts";
import { toolWords } from "./tool-words.ts";

export { CHOICES } from "../questions/permission/card.ts";
export { diffSummary, lastTwoParts, requestSummary } from "../questions/permission/tool-words.ts";

/** The neutral request of a hook's ask. */
export function hookRequest(room: AgentRoom, ask: PermissionAsk): PermissionRequest {
  return {
    asker: room.label,
    askedBy: `${room.label} (PermissionRequest hook)`,
    tool: ask.tool,
    input: ask.input,
    cwd: ask.cwd,
    description: ask.description,
    words: toolWords(ask.tool, ask.input),
  };
}

/** What this request offers: what the room takes, where the request allows it. */
export function hookOffers(room: AgentRoom, ask: PermissionAsk, pattern: string): PermissionOffers {
  const { takes } = room;
  return {
    session: takes.session ? patternWords(pattern) : undefined,
    always: takes.always && ask.always.length > 0 ? alwaysWords(ask.always) : undefined,
    edit: takes.edit && typeof ask.input.command === "string",
    stop: takes.stop,
  };
}

export interface Decided {
  decision: AgentDecision;
  /** The boxholder chose "Allow for this session": the caller writes the grant. */
  grant: boolean;
}

function denied(id: string, note: string | undefined): string {
  return note
    ? `The owner denied this: "${note}" (question ${id}).`
    : `The owner denied this on their phone (question ${id}). Do not run it; ask differently if it still matters.`;
}

/** What the agent is told; undefined when there is nothing to tell (then it asks itself). */
export function decisionOf(ask: PermissionAsk, outcome: QuestionOutcome): Decided | undefined {
  const id = outcome.id;
  if (outcome.status === "dismissed") {
    const message = `The owner set this request aside on their phone without allowing it (question ${id}). Do not run ${ask.tool}.`;
    return { decision: { behavior: "deny", message }, grant: false };
  }
  const choice = permissionChoice(outcome);
  switch (choice?.kind) {
    case undefined:
      return undefined;
    case "once":
      return { decision: { behavior: "allow" }, grant: false };
    case "session":
      return { decision: { behavior: "allow" }, grant: true };
    case "always":
      return { decision: { behavior: "allow", updatedPermissions: ask.always }, grant: false };
    case "edited": {
      const updatedInput = { ...ask.input, command: choice.command };
      return { decision: { behavior: "allow", updatedInput }, grant: false };
    }
    case "deny":
      return { decision: { behavior: "deny", message: denied(id, choice.note) }, grant: false };
    case "stop": {
      const why = choice.note ? `: "${choice.note}"` : "";
      const message = `The owner stopped this turn on their phone${why} (question ${id}). Do not run ${ask.tool}; wait for their next instruction.`;
      return { decision: { behavior: "deny", message, interrupt: true }, grant: false };
    }
  }
}
