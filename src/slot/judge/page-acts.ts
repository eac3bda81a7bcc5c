// The judge's path for what a page, the API or the CLI does besides answering, where no chat
// presentation was shown: dismiss, extend or put off a question named by id, and triage's two
// steps on the list (review, then record). Who: the proof, resolved as for every attempt
// (who.ts); only then the surface's own `run` does the act, through the core. Each attempt is
// audited, as a chat's command is; a transition audits what it does itself too.

import type { Question } from "../../card/question.ts";
import { REFUSED_TRUTH, safeAudit } from "../../questions/audit.ts";
import type { Core } from "../../questions/core.ts";
import { loadCommitted } from "../../questions/transition.ts";
import type { Reason } from "./attempt.ts";
import { bookOf } from "./book.ts";
import type { From, Who } from "./proof.ts";
import { refusedOutcome } from "./taps.ts";
import { type Act, mayAct, whoActed } from "./who.ts";

/** What a page asks: an act on the question named by id, or on the list (triage). */
export type PageAct =
  | { act: "dismiss" | "extend" | "later"; questionId: string }
  | { act: "triage" | "accept"; questionId?: undefined };

export type PageAttempt = { kind: "page"; from: From } & PageAct;

export type PageVerdict<T> =
  | { kind: "done"; value: T }
  | { kind: "refused"; name: string; reason: Reason; reply: string; error: unknown };

const ACTS: Record<PageAct["act"], Act> = {
  dismiss: "decline",
  extend: "attend",
  later: "attend",
  triage: "attend",
  accept: "answer",
};

/**
 * Judges who may do the page's act, then runs it with the surface to record (`via`, `by`). A
 * failure of `run` is thrown as it is (the surface's error map says it), after its audit line.
 */
export async function judgePage<T>(
  core: Core,
  a: PageAttempt,
  run: (surface: { via: string; by: string | undefined }) => Promise<T>,
): Promise<PageVerdict<T>> {
  const who = whoActed(a.from, bookOf(core));
  const card = a.questionId === undefined ? undefined : await cardOf(core, a.questionId);
  const question = a.questionId && card ? { id: a.questionId, card } : undefined;
  const refusal = mayAct(who, ACTS[a.act], question);
  if (refusal) {
    const outcome = refusedOutcome(refusal);
    audit(core, a, who, outcome.name, outcome.reply);
    return {
      kind: "refused",
      name: outcome.name,
      reason: outcome.reason ?? "error",
      reply: outcome.reply,
      error: outcome.error,
    };
  }
  try {
    const value = await run({ via: who.via, by: who.by });
    audit(core, a, who, "done", `${a.act} done`);
    return { kind: "done", value };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    audit(core, a, who, "refused:error", detail, REFUSED_TRUTH);
    throw error;
  }
}

/** The card as committed; undefined when it cannot be read (the act's transition says why). */
async function cardOf(core: Core, id: string): Promise<Question | undefined> {
  try {
    return (await loadCommitted(core, id)).card;
  } catch {
    return undefined;
  }
}

function audit(
  core: Core,
  a: PageAttempt,
  who: Who,
  outcome: string,
  detail: string,
  truth?: string,
): void {
  safeAudit(
    core,
    {
      at: core.box.clock.iso(),
      questionId: a.questionId,
      surface: who.via,
      actor: who.by,
      action: `command:${a.act}`,
      outcome,
      detail: who.why && outcome !== "done" ? `${detail} (${who.why})` : detail,
    },
    truth,
  );
}
