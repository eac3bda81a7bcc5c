// Triage offers in the ledger: what a digest's confirm list showed (each question with the
// fingerprint of its card at that moment), until the boxholder's second tap. The offer is
// decided once: a repeated tap, a resent form or two surfaces at once get the first result
// back and record nothing more.

import type { Question } from "../../card/question.ts";
import type { Db } from "../../ledger/ledger.ts";
import { newToken } from "../presentation/tokens.ts";
import { type AnswerPath, acceptOffer, type OfferItem, type OfferResult } from "./triage.ts";

export interface StoredOffer {
  id: string;
  surface: string;
  items: OfferItem[];
  createdAt: string;
  decidedAt: string | undefined;
  result: OfferResult | undefined;
}

export type OfferDecision =
  | { kind: "recorded"; result: OfferResult }
  /** Decided before: the result it had (undefined when that run was cut short). */
  | { kind: "replayed"; result: OfferResult | undefined }
  /** Not decided within OFFER_LIFETIME_MS of the list: nothing recorded. */
  | { kind: "expired" }
  | { kind: "unknown" };

/**
 * How long a confirm list can be recorded after it was shown. The second tap normally follows
 * the first within a minute; one on a list scrolled back to hours later is more likely a stray
 * thumb than a decision, and records nothing (a decided list still replays its result).
 */
export const OFFER_LIFETIME_MS = 60 * 60_000;

export class TriageOffers {
  constructor(private readonly db: Db) {}

  /** Keeps what the confirm list shows; the id goes on the confirming button or form. */
  save(items: OfferItem[], surface: string, at: string): string {
    const id = newToken();
    this.db
      .prepare("INSERT INTO triage_offers (id, surface, items, created_at) VALUES (?, ?, ?, ?)")
      .run(id, surface, JSON.stringify(items), at);
    return id;
  }

  get(id: string): StoredOffer | undefined {
    const row = this.db.prepare("SELECT * FROM triage_offers WHERE id = ?").get(id) as
      | Record<string, string | null>
      | undefined;
    if (!row) return undefined;
    return {
      id,
      surface: row.surface as string,
      items: JSON.parse(row.items as string) as OfferItem[],
      createdAt: row.created_at as string,
      decidedAt: row.decided_at ?? undefined,
      result: row.result ? (JSON.parse(row.result) as OfferResult) : undefined,
    };
  }

  /** Claims the offer for deciding; false when it was decided (or is being decided) already. */
  private claim(id: string, at: string): boolean {
    return (
      this.db
        .prepare("UPDATE triage_offers SET decided_at = ? WHERE id = ? AND decided_at IS NULL")
        .run(at, id).changes === 1
    );
  }

  private settle(id: string, result: OfferResult): void {
    this.db
      .prepare("UPDATE triage_offers SET result = ? WHERE id = ?")
      .run(JSON.stringify(result), id);
  }

  /**
   * The second tap: records the offer's items through `answer` (the transition core), once.
   * A claimed offer whose run failed outright is released, so the same tap may try again.
   */
  async decide(
    id: string,
    answer: AnswerPath,
    load: (id: string) => Question | undefined,
    at: string,
  ): Promise<OfferDecision> {
    const offer = this.get(id);
    if (!offer) return { kind: "unknown" };
    if (
      offer.decidedAt === undefined &&
      Date.parse(at) - Date.parse(offer.createdAt) > OFFER_LIFETIME_MS
    )
      return { kind: "expired" };
    if (!this.claim(id, at)) return { kind: "replayed", result: this.get(id)?.result };
    let result: OfferResult;
    try {
      result = await acceptOffer(offer.items, answer, load);
    } catch (error) {
      this.db.prepare("UPDATE triage_offers SET decided_at = NULL WHERE id = ?").run(id);
      throw error;
    }
    this.settle(id, result);
    return { kind: "recorded", result };
  }
}
