// The second channel: a question shown on one surface and left there untapped is shown on
// another too (e-mail beside Telegram), as a second presentation of the slot's open one, judged
// like any presentation: a reply to it answers through the judge, the first answer wins, and
// the other surface is told. Only the slot's own presentation holds the slot; a second never
// does, and it closes when that one closes. "Untapped" is the measure, as a chat service gives
// no read receipts: the presentation still open, `afterMs` after it was shown (at once for a
// high-priority question), outside quiet hours unless high.

import type { Question } from "../../card/question.ts";
import { priorityOf } from "../../card/question.ts";
import type { Core } from "../../questions/core.ts";
import { loadQuestion } from "../../questions/store.ts";
import { type Attention, quietEnds } from "../attention/attention.ts";
import type { Reach } from "../reach.ts";
import type { Registry } from "../registry.ts";
import type { SlotLogger } from "../slot-ops.ts";
import type { ClosedTeller } from "./closed-teller.ts";
import * as closures from "./closure.ts";
import type { Presenter } from "./presenter.ts";
import type { Presentation, PresentationStore } from "./records.ts";
import { SecondRecords } from "./second-records.ts";

/** What the second channel works with: the slot's parts (reconcile.ts passes its own). */
export interface SecondDeps {
  core: Core;
  presentations: PresentationStore;
  registry: Registry;
  teller: ClosedTeller;
  reach: Reach;
  attention: Attention;
  logger: SlotLogger;
  now: () => string;
  load: (questionId: string) => Question | undefined;
}

/** Closes each open second whose first showing closed; its bridge is told (now or next tick). */
export async function closeLoneSeconds(deps: SecondDeps): Promise<void> {
  const { presentations, teller, load, now, core } = deps;
  for (const second of new SecondRecords(core.ledger.db).openSeconds()) {
    const first = second.secondOf === undefined ? undefined : presentations.get(second.secondOf);
    if (first && (first.state === "queued" || first.state === "presented")) continue;
    const closure = closures.closureOf(load(second.questionId));
    if (presentations.close(second.seq, "resolved", closure.text, now())) {
      await teller.tell(second, closure);
    }
  }
}

/** True when `first` has waited long enough on its surface to be shown on `presenter` too. */
function due(deps: SecondDeps, first: Presentation, presenter: Presenter): boolean {
  const { core, attention, load } = deps;
  const card = load(first.questionId);
  if (card?.status !== "pending" || !presenter.second || first.presentedAt === undefined)
    return false;
  const high = priorityOf(card) === "high";
  const at = core.box.clock.now();
  if (!high && quietEnds(at, attention)) return false;
  return high || new Date(first.presentedAt).getTime() + presenter.second.afterMs <= at.getTime();
}

/** Shows the slot's open question on each second channel it is due on, once per surface. */
export async function presentSeconds(deps: SecondDeps): Promise<void> {
  const { presentations, registry, reach, logger, now, core } = deps;
  const first = presentations.open();
  if (first?.state !== "presented" || !registry.mine(first)) return;
  const seconds = new SecondRecords(core.ledger.db);
  for (const presenter of registry.presenters) {
    if (presenter.surface === first.surface || !presenter.ready()) continue;
    if (!reach.open(presenter.surface) || seconds.hasSecond(first.seq, presenter.surface)) continue;
    if (!due(deps, first, presenter)) continue;
    const question = loadQuestion(core, first.questionId);
    const seq = seconds.claimSecond(first, presenter.surface, now());
    try {
      const request = { seq, question, behind: 0, silent: false, alsoOn: first.surface };
      const address = await presenter.present(request);
      if (!address) {
        presentations.close(seq, "superseded", "not shown", now());
        presentations.told(seq, now());
        continue;
      }
      presentations.presented(seq, address, now());
      reach.reached(presenter.surface);
      logger.info(
        { question: first.questionId, surface: presenter.surface },
        "presented as a second",
      );
    } catch (error) {
      // Kept closed, not released: a second is tried once per first showing.
      presentations.close(seq, "superseded", "could not be shown", now());
      presentations.told(seq, now());
      reach.failed(presenter.surface, error, first.questionId);
    }
  }
}
