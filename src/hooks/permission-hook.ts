// `qbridge hook permission`: one permission request from a coding agent's hook. A live grant
// of this agent session for the same tool and pattern allows it at once (the use is counted and
// audited); otherwise one question is filed through the core and waited on, and the decision is
// printed in the agent's own shape. Nothing is printed when nobody decided: the agent then asks
// at its own screen. A dismissed question is told as a no and then withdrawn, so no answer
// given later is taken for one the agent still waits on. Nothing is filed when nobody can be
// reached, and what is filed is filed under the hook's lease (filing.ts).
// While it waits, a grant the boxholder gives on a sibling request of the same session that
// covers this one answers it (grant-watch.ts); an "Always allow" rule is recorded as a grant
// for that too.

import { randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { requestOf } from "../card/agent-request.ts";
import { GrantStore } from "../ledger/grants.ts";
import { askPermission } from "../questions/ask-permission.ts";
import type { Core } from "../questions/core.ts";
import type { QuestionOutcome } from "../questions/outcome.ts";
import { permissionCard } from "../questions/permission/card.ts";
import { jsonOf, type PermissionAsk } from "./agent-input.ts";
import { roomNamed, roomOfInput } from "./agents/list.ts";
import type { AgentRoom } from "./agents/room.ts";
import { suggestedRule } from "./always-allow.ts";
import { fileUnderLease } from "./filing.ts";
import { grantPattern } from "./grant-pattern.ts";
import { coveringGrant, settleWhenGranted } from "./grant-watch.ts";
import { waitWhileHookLives, withdrawUnlessDecided } from "./hook-wait.ts";
import type { HookLifetime } from "./lifetime.ts";
import {
  type Decided,
  decisionOf,
  hookOffers,
  hookRequest,
  requestSummary,
} from "./permission-question.ts";
import { runPlanReview } from "./plan-hook.ts";
import { runQuestionSet } from "./question-set-hook.ts";

/** Claude Code's and Codex's documented default timeout of a command hook. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 600;
/** How long "Allow for this session" lasts at most, should the session never end. */
export const GRANT_HOURS = 12;

export interface PermissionHookOptions {
  /** The agent's name (`--agent`); without it, the room that recognizes the input. */
  agent?: string | undefined;
  timeoutSeconds: number;
  /** The hook process's life: its end (a signal, the agent gone, the timeout) withdraws. */
  lifetime: HookLifetime;
  /** Writes one JSON value on standard output. */
  print: (value: Record<string, unknown>) => void;
  /** Writes one line on standard error (why nothing was filed). */
  tell: (line: string) => void;
  /** The person's home folder, which "Always allow" never opens (default: this user's). */
  home?: string | undefined;
}

function grantFrom(core: Core, ask: PermissionAsk, pattern: string, questionId: string) {
  const now = core.box.clock.now();
  return {
    id: randomBytes(3).toString("hex"),
    agent: ask.agent,
    sessionId: ask.sessionId,
    tool: ask.tool,
    pattern,
    questionId,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + GRANT_HOURS * 3_600_000).toISOString(),
  };
}

/** The room of the agent that runs the hook: named by --agent, else told from the input. */
function roomFor(text: string, agent: string | undefined): AgentRoom {
  return agent !== undefined ? roomNamed(agent) : roomOfInput(jsonOf(text));
}

export async function runPermissionHook(
  core: Core,
  text: string,
  options: PermissionHookOptions,
): Promise<void> {
  const room = roomFor(text, options.agent);
  const read = room.readPermission(text, options.home ?? homedir());
  switch (read.kind) {
    case "fall-through":
      return;
    case "questions":
      return runQuestionSet(core, room, read.set, options);
    case "plan":
      return runPlanReview(core, room, read.plan, options);
    case "permission":
      return askAndDecide(core, room, read.ask, options);
  }
}

/** A tool call: a covering grant allows it at once, else the boxholder is asked. */
async function askAndDecide(
  core: Core,
  room: AgentRoom,
  ask: PermissionAsk,
  options: PermissionHookOptions,
): Promise<void> {
  const rule = suggestedRule(ask.always, ask.tool);
  const by = room.grantBy?.[ask.tool.toLowerCase()] ?? "input";
  const pattern = grantPattern(ask.input, ask.cwd, by, rule);
  const grants = new GrantStore(core.ledger);
  const now = core.box.clock.iso();
  const grant = coveringGrant(grants, ask, now);
  if (grant) {
    grants.recordUse(grant, now, `${ask.tool}: ${requestSummary(ask.input)}`);
    options.print(room.writePermission({ behavior: "allow" }));
    return;
  }
  const offers = hookOffers(room, ask, pattern);
  const card = permissionCard(hookRequest(room, ask), offers, options.timeoutSeconds);
  const key = {
    agent: ask.agent,
    sessionId: ask.sessionId,
    tool: ask.tool,
    input: ask.input,
    // Without the agent's call id, this hook run is the call: it never joins another's.
    call:
      ask.callId !== undefined ? `call ${ask.callId}` : `hook ${randomBytes(8).toString("hex")}`,
  };
  const filed = await fileUnderLease(
    core,
    options.lifetime,
    room.label,
    (meanwhile) =>
      askPermission(core, card, key, "hook", { meanwhile, whole: requestOf(ask.input) }),
    options.tell,
  );
  if (!filed) return;
  const { id, lease } = filed;
  const watching = new AbortController();
  const watch = settleWhenGranted(core, id, ask, watching.signal);
  const outcome = await waitWhileHookLives(core, id, options.lifetime);
  watching.abort();
  await watch;
  const decided = decisionOf(ask, outcome);
  const granted = decided && grantedPattern(ask, pattern, decided);
  if (granted) grants.add(grantFrom(core, ask, granted, id));
  if (decided) options.print(room.writePermission(decided.decision));
  if (outcome.status === "dismissed") await settleDismissed(core, outcome);
  await lease.release();
}

/**
 * The pattern the decision grants this session: "Allow for this session"'s, or an "Always
 * allow" rule the agent suggested for this tool (which the agent keeps itself; recorded here
 * too, so the session's requests already waiting are settled by it).
 */
function grantedPattern(ask: PermissionAsk, pattern: string, decided: Decided) {
  if (decided.grant) return pattern;
  const always = decided.decision.behavior === "allow" && decided.decision.updatedPermissions;
  return always && suggestedRule(ask.always, ask.tool) !== undefined ? pattern : undefined;
}

/** A dismissed permission stays answerable; the agent was told no, so it is withdrawn. */
async function settleDismissed(core: Core, outcome: QuestionOutcome): Promise<void> {
  await withdrawUnlessDecided(core, outcome.id, "dismissed on the phone: the agent was told no");
}
