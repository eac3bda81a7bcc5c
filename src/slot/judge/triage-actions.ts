// The two taps of triage, as entries of the judge's action table (actions.ts): [✅ Accept N
// recommendations] keeps the offer (what the digest would record now, each card's fingerprint
// with it) and has the bridge show exactly that list with one confirming button; that button
// records the offer through the slot's answer path, one transition per question. Neither needs
// an open presentation: the judge has checked the token, the boxholder and the message.

import type { Question } from "../../card/question.ts";
import { loadQuestion } from "../../questions/store.ts";
import type { Presentation } from "../presentation/records.ts";
import { TriageOffers } from "../triage/offers.ts";
import { type AnswerPath, boxDigest } from "../triage/triage.ts";
import type { ActionEntry, Outcome, TokenContext } from "./attempt.ts";

export type { TriageView } from "../triage/triage.ts";

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function loader(c: TokenContext): (id: string) => Question | undefined {
  return (id) => {
    try {
      return loadQuestion(c.slot.core, id).card;
    } catch {
      return undefined;
    }
  };
}

/** The first tap: the list of what would be recorded, kept in the ledger; nothing recorded. */
export const triageEntry: ActionEntry = {
  needs: "token",
  async decide(c): Promise<Outcome> {
    const digest = boxDigest(c.slot.core);
    if (!digest?.offer.length) {
      return {
        kind: "refused",
        name: "refused:nothing-to-accept",
        reason: "closed",
        reply: "Nothing to accept now: no waiting question has a recommendation to accept.",
        relayout: "drop",
      };
    }
    const items = digest.offer;
    const offerId = c.slot.core.ledger.store(TriageOffers).save(items, c.who.via, c.now());
    const reply = `Record ${plural(items.length, "answer")}? Nothing is recorded until you tap Record.`;
    c.slot.tokens.markUsed(c.token.token, reply, c.now());
    return {
      kind: "needs-confirmation",
      name: "triage-offered",
      reply,
      relayout: "triage",
      triage: { step: "offer", offerId, items },
    };
  },
};

/** The second tap: each listed answer through the slot, skipping what changed since the list. */
export const acceptEntry: ActionEntry = {
  needs: "token",
  async decide(c): Promise<Outcome> {
    const surface = { via: c.who.via, by: c.who.by };
    const closed: Presentation[] = [];
    const answer: AnswerPath = async (id, attempt, options) => {
      const done = await c.ops.answer(id, attempt, surface, options);
      if (done.closed) closed.push(done.closed);
      return done.result;
    };
    const offers = c.slot.core.ledger.store(TriageOffers);
    const decision = await offers.decide(c.token.optionId ?? "", answer, loader(c), c.now());
    if (decision.kind === "expired") {
      return {
        kind: "refused",
        name: "refused:expired-offer",
        reason: "late",
        reply:
          "This list is over an hour old, so nothing was recorded: send /waiting for a fresh one.",
        relayout: "drop",
      };
    }
    if (decision.kind === "unknown" || !decision.result) {
      return {
        kind: "refused",
        name: "refused:unknown-offer",
        reason: "unknown-token",
        reply:
          decision.kind === "unknown"
            ? "This list is not known here (it may be from before a reset). Nothing was recorded."
            : "This list was confirmed before and its recording was cut short; send /waiting for a fresh one.",
        relayout: "drop",
      };
    }
    const { result } = decision;
    const replayed = decision.kind === "replayed";
    const skipped = result.skipped.length ? `, skipped ${result.skipped.length}` : "";
    const reply = replayed
      ? "Recorded before; nothing more was recorded."
      : `✅ Recorded ${plural(result.recorded.length, "answer")}${skipped}.`;
    // A presented question answered here: its own buttons replay what happened from now on.
    for (const p of closed)
      c.slot.tokens.markPresentationUsed(p.seq, "Recorded in triage.", c.now());
    c.slot.tokens.markUsed(c.token.token, reply, c.now());
    return {
      kind: replayed ? "replayed" : "recorded",
      name: replayed ? "replayed" : "triage-accepted",
      reply,
      relayout: "triage",
      triage: { step: "result", result, replayed },
      after: async () => {
        if (closed.length === 0) await c.ops.fill();
        for (const p of closed) await c.ops.settle(p);
      },
    };
  },
};
