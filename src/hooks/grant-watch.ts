// A waiting permission hook watches its agent session's grants: once the boxholder gives one
// on a sibling request ("Allow for this session", or an "Always allow" rule) that covers this
// request exactly as "Allow for this session" would cover a later one (grant-pattern.ts), the
// waiting question is answered by that grant (src/questions/grant-cover.ts: its own commit,
// audited as covered by the grant, the use counted) and the hook prints its allow. It looks
// at once, so a grant given while the question was being filed is not missed, then every
// GRANT_CHECK_MS until the question is decided or the hook's life ends. It never covers a
// request the grant does not; an answer the boxholder gave first wins.

import { setTimeout as sleep } from "node:timers/promises";
import { TransitionRejected } from "../errors.ts";
import { type Grant, GrantStore } from "../ledger/grants.ts";
import type { Core } from "../questions/core.ts";
import { answerByGrant } from "../questions/grant-cover.ts";
import type { PermissionAsk } from "./agent-input.ts";
import { covers } from "./grant-pattern.ts";
import { CHOICES, requestSummary } from "./permission-question.ts";

/** How often a waiting hook looks for a new grant of its session. */
export const GRANT_CHECK_MS = 200;

/** The live grant of this session that covers the request, if any. */
export function coveringGrant(grants: GrantStore, ask: PermissionAsk, now: string) {
  return grants
    .liveFor(ask.agent, ask.sessionId, ask.tool, now)
    .find((g) => covers(g.pattern, ask.input, ask.cwd));
}

/** The words a question answered by a grant shows on every surface. */
export function coveredWords(grant: Grant): string {
  const from = grant.questionId ? ` given on question ${grant.questionId}` : "";
  return `Allowed by this session's grant ${grant.id}${from}`;
}

/** Answers question `id` by `grant`; false when another answer won first. */
async function settleBy(core: Core, id: string, ask: PermissionAsk, grant: Grant) {
  try {
    await answerByGrant(core, id, {
      grant: grant.id,
      selected: CHOICES.once,
      text: coveredWords(grant),
      actor: `${ask.agent}:${ask.sessionId}`,
    });
  } catch (error) {
    if (error instanceof TransitionRejected) return false;
    throw error;
  }
  const grants = new GrantStore(core.ledger);
  grants.recordUse(grant, core.box.clock.iso(), `${ask.tool}: ${requestSummary(ask.input)}`);
  return true;
}

/**
 * Watches until `signal` aborts (the caller's wait ended) or a covering grant answered the
 * question; resolves either way, and never rejects (a failed look at the grants is tried again).
 */
export async function settleWhenGranted(
  core: Core,
  id: string,
  ask: PermissionAsk,
  signal: AbortSignal,
): Promise<void> {
  const grants = new GrantStore(core.ledger);
  while (!signal.aborted) {
    let grant: Grant | undefined;
    try {
      grant = coveringGrant(grants, ask, core.box.clock.iso());
    } catch {
      // A busy ledger: the next look tries again.
    }
    // Settled, lost to another answer, or failed (the boxholder still answers it): done.
    if (grant) return void (await settleBy(core, id, ask, grant).catch(() => false));
    await sleep(GRANT_CHECK_MS, undefined, { signal }).catch(() => undefined);
  }
}
