// Extend: more time for a pending question. The deadline lives on the card (`expires-after`,
// counted from `asked-at`), so adding time is a card rewrite through the transition core, one
// commit, like every other change. The nudge follows: it stays at half of `expires-after`, and
// a nudge already sent is forgotten when the new halfway point is still ahead, so the boxholder
// is reminded again before the new deadline. Never answers or closes anything.

import { rewriteCardText } from "../card/codec.ts";
import { DAY_MS, formatDuration, parseTypedDuration } from "../card/duration.ts";
import { AGENT_WAITS, mayWait } from "../card/question.ts";
import { InvalidInput } from "../errors.ts";
import { agingSchedule } from "./aging-policy.ts";
import type { Surface } from "./answer.ts";
import { auditRefused } from "./audit.ts";
import type { Core } from "./core.ts";
import { deadlineOf } from "./deadline.ts";
import { withQuestionTransition } from "./transition.ts";

/** Most time one Extend adds: beyond a year a question is better dismissed and asked again. */
export const MAX_EXTENSION_MS = 365 * DAY_MS;

export interface ExtendResult {
  id: string;
  /** The card's new `expires-after`. */
  expiresAfter: string;
  /** The deadline before and after, ISO times. */
  previousExpiresAt: string;
  expiresAt: string;
  commit: string;
}

/** The time an Extend adds, from what a person typed; a clear error when it is not a length. */
export function extensionMs(text: string): number {
  const ms = parseTypedDuration(text);
  if (ms === undefined) {
    throw new InvalidInput(
      `"${text}" is not a length of time: give an ISO-8601 duration such as P7D or PT12H, or a number and a unit such as 3d, 12h, 2w`,
    );
  }
  if (ms < 60_000 || ms > MAX_EXTENSION_MS) {
    throw new InvalidInput(
      `"${text}" is not between a minute and 365 days: extend by at least 1m and at most P365D`,
    );
  }
  return ms;
}

export async function extendQuestion(
  core: Core,
  id: string,
  by: string,
  surface: Surface,
): Promise<ExtendResult> {
  const at = core.box.clock.iso();
  /** What its audit line says, applied or refused. */
  const audit = {
    at,
    questionId: id,
    surface: surface.via,
    actor: surface.by,
    action: "extend",
    verbatim: by,
  };
  const now = core.box.clock.now().getTime();
  try {
    const added = extensionMs(by);
    const { commit, value } = await withQuestionTransition(
      core,
      id,
      "extend",
      ["pending"],
      (current) => {
        if (!mayWait(current.card)) throw new InvalidInput(`not extended: ${AGENT_WAITS}`);
        const before = deadlineOf(current.card).getTime();
        // Time added to a deadline already passed (the sweep has not run yet) counts from now.
        const after = Math.max(before, now) + added;
        const asked = new Date(current.card["asked-at"]).getTime();
        const expiresAfter = formatDuration(after - asked);
        return {
          plan: {
            writes: [
              {
                rel: current.rel,
                content: rewriteCardText(current.text, { "expires-after": expiresAfter }),
              },
            ],
            message: `extend: ${current.card.prompt.replace(/\s+/g, " ").slice(0, 60)}`,
            trailers: { "Extended-Via": surface.via, "Expires-After": expiresAfter, Question: id },
            record: { ...audit, resolvedTo: expiresAfter, outcome: "applied" },
          },
          value: {
            nudgeAt: asked + agingSchedule({ "expires-after": expiresAfter }).nudgeAtMs,
            expiresAfter,
            previousExpiresAt: new Date(before).toISOString(),
            expiresAt: new Date(after).toISOString(),
          },
        };
      },
    );
    const { nudgeAt, ...result } = value;
    if (nudgeAt > now) core.ledger.forgetNudge(id);
    return { id, ...result, commit };
  } catch (error) {
    auditRefused(core, audit, error);
    throw error;
  }
}
