// `qbridge hook permission`: one permission request from a coding agent's hook. A live grant
// of this agent session for the same tool and pattern allows it at once (the use is counted and
// audited); otherwise one question is filed through the core and waited on, and the decision is
// printed in the agent's own shape. Nothing is printed when nobody decided: the agent then asks
// at its own screen. A dismissed question is told as a no and then withdrawn, so no answer
// given later is taken for one the agent still waits on. Nothing is filed when nobody can be
// reached, and what is filed is filed under the hook's lease (filing.ts).

import { randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { requestOf } from "../card/agent-request.ts";
import { type Grant, GrantStore } from "../ledger/grants.ts";
import { askPermission } from "../questions/ask-permission.ts";
import type { Core } from "../questions/core.ts";
import type { QuestionOutcome } from "../questions/outcome.ts";
import {
  AGENT_NAMES,
  type Agent,
  type PermissionAsk,
  parsePermissionInput,
} from "./agent-input.ts";
import { permissionOutput } from "./agent-output.ts";
import { suggestedRule } from "./always-allow.ts";
import { fileUnderLease } from "./filing.ts";
import { covers, grantPattern } from "./grant-pattern.ts";
import { waitWhileHookLives, withdrawUnlessDecided } from "./hook-wait.ts";
import type { HookLifetime } from "./lifetime.ts";
import { decisionOf, permissionCard, requestSummary } from "./permission-question.ts";

/** Claude Code's and Codex's documented default timeout of a command hook. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 600;
/** How long "Allow for this session" lasts at most, should the session never end. */
export const GRANT_HOURS = 12;

export interface PermissionHookOptions {
  agent?: Agent | undefined;
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

/** The grant of this session that covers the request, if any. */
function coveringGrant(grants: GrantStore, ask: PermissionAsk, now: string): Grant | undefined {
  return grants
    .liveFor(ask.agent, ask.sessionId, ask.tool, now)
    .find((g) => covers(g.pattern, ask.input, ask.cwd));
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

export async function runPermissionHook(
  core: Core,
  text: string,
  options: PermissionHookOptions,
): Promise<void> {
  const ask = parsePermissionInput(text, options.home ?? homedir(), options.agent);
  const pattern = grantPattern(ask.input, ask.cwd, suggestedRule(ask.always, ask.tool));
  const grants = new GrantStore(core.ledger);
  const now = core.box.clock.iso();
  const grant = coveringGrant(grants, ask, now);
  if (grant) {
    grants.recordUse(grant, now, `${ask.tool}: ${requestSummary(ask.input)}`);
    options.print(permissionOutput(ask.agent, { behavior: "allow" }));
    return;
  }
  const card = permissionCard(ask, pattern, options.timeoutSeconds);
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
    AGENT_NAMES[ask.agent],
    (meanwhile) =>
      askPermission(core, card, key, "hook", { meanwhile, whole: requestOf(ask.input) }),
    options.tell,
  );
  if (!filed) return;
  const { id, lease } = filed;
  const outcome = await waitWhileHookLives(core, id, options.lifetime);
  const decided = decisionOf(ask, outcome);
  if (decided?.grant) grants.add(grantFrom(core, ask, pattern, id));
  if (decided) options.print(permissionOutput(ask.agent, decided.decision));
  if (outcome.status === "dismissed") await settleDismissed(core, outcome);
  await lease.release();
}

/** A dismissed permission stays answerable; the agent was told no, so it is withdrawn. */
async function settleDismissed(core: Core, outcome: QuestionOutcome): Promise<void> {
  await withdrawUnlessDecided(core, outcome.id, "dismissed on the phone: the agent was told no");
}
