// Telling the boxholder, once and in one message, which questions expired unanswered. Which
// ones are new is derived from the cards (status expired, `expired-at` after the last told
// time kept in the ledger's meta), so an expiry made by `qbridge age` in another process is
// told too, and a notice no bridge could deliver is told at the next sweep instead of lost.

import type { Core } from "../../questions/core.ts";
import { type QuestionView, questionsWithStatus } from "../../questions/state.ts";
import type { Presenter } from "./presenter.ts";

const TOLD_THROUGH = "expiries-told-through";

/**
 * Sends one notice for the questions that expired since the last one, through the first ready
 * presenter that can (`deliver` sends it: the slot's holds off a chat that refuses). Resolves
 * to the ids told (none when there was nothing new or nobody to tell). On a box never told
 * before, only what expires from now on is news, not history.
 */
export async function tellExpired(
  core: Core,
  presenters: readonly Presenter[],
  deliver: (presenter: Presenter, questions: QuestionView[]) => Promise<boolean> = (p, qs) =>
    p.expired?.(qs) ?? Promise.resolve(false),
): Promise<string[]> {
  let told = core.ledger.getMeta(TOLD_THROUGH);
  if (told === undefined) {
    told = new Date(core.box.clock.now().getTime() - 1).toISOString();
    core.ledger.setMeta(TOLD_THROUGH, told);
  }
  const since = new Date(told).getTime();
  // The expired cards only: the whole box (10,000 cards, say) is not loaded at every sweep.
  const fresh = questionsWithStatus(core, "expired").filter(
    (view) => new Date(view.card["expired-at"] ?? 0).getTime() > since,
  );
  if (fresh.length === 0) return [];
  const expired: QuestionView[] = fresh.sort((a, b) =>
    (a.card["expired-at"] ?? "").localeCompare(b.card["expired-at"] ?? ""),
  );
  for (const presenter of presenters) {
    if (!presenter.expired || !presenter.ready()) continue;
    if (!(await deliver(presenter, expired))) continue;
    const latest = expired.at(-1)?.card["expired-at"] ?? core.box.clock.iso();
    core.ledger.setMeta(TOLD_THROUGH, new Date(latest).toISOString());
    return expired.map((view) => view.id);
  }
  return [];
}
