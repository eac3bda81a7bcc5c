// The coding agents' "Allow for this session" grants as every chat bridge shows them: the live
// ones listed one a line with their id, and a revocation by id. Surface-neutral words; the
// bridge only sends them. Only the boxholder's own commands reach here (each bridge's gate).

import { headAndTail } from "../card/agent-request.ts";
import { visibleLine } from "../card/agent-text.ts";
import { type Grant, GrantStore, grantLive } from "../ledger/grants.ts";
import type { Slot } from "./slot.ts";

/** How much of a grant's pattern a line shows: an agent's command can run to pages. */
const PATTERN_SHOWN = 200;

/** What a grant covers, on one line: a multi-line command's breaks shown as ⏎, a long one by
 * its head and tail. */
function covered(grant: Grant): string {
  return headAndTail(visibleLine(grant.pattern.replace(/^[a-z]+:/, "")), PATTERN_SHOWN);
}

function line(grant: Grant): string {
  const what = covered(grant);
  const until = grant.expiresAt.slice(11, 16);
  return `${grant.id}: ${grant.agent} may run ${grant.tool} ${what} (used ${grant.uses}×, until ${until} UTC)`;
}

/** The live grants, one a line; a sentence when there are none. */
export function liveGrantLines(slot: Slot): string[] {
  const now = slot.core.box.clock.iso();
  const live = new GrantStore(slot.core.ledger).all().filter((grant) => grantLive(grant, now));
  return live.length ? live.map(line) : ["No agent session may skip a question right now."];
}

/** Revokes a grant by id, in words for the boxholder. */
export function revokeGrant(slot: Slot, id: string, surface: string): string {
  const store = new GrantStore(slot.core.ledger);
  const grant = store.get(id.trim());
  if (!grant) return `No grant "${id.trim()}": /grants lists them.`;
  if (!store.revoke(grant.id, slot.core.box.clock.iso(), surface)) {
    return `${grant.id} was revoked already; nothing changed.`;
  }
  return `Revoked ${grant.id}: ${grant.tool} ${covered(grant)} asks again.`;
}
