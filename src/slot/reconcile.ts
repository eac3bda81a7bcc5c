// Reconciliation: the ledger's presentations brought in step with the box (closed, edited,
// deleted or put-off cards) and with the processes that show them. Each step assumes the slot's
// lock is held (slot.ts takes it); createOperations (operations.ts) calls them.

import { shownAsIs } from "../card/fingerprint.ts";
import type { Question } from "../card/question.ts";
import type { Core } from "../questions/core.ts";
import { settleInterruptedWrites } from "../questions/transition.ts";
import type { Attention } from "./attention/attention.ts";
import { backAt, type LaterStore } from "./attention/later.ts";
import type { ClosedTeller } from "./presentation/closed-teller.ts";
import * as closures from "./presentation/closure.ts";
import { movedDeadlineAside } from "./presentation/moved-deadline.ts";
import type { Closure } from "./presentation/presenter.ts";
import type { Presentation, PresentationStore } from "./presentation/records.ts";
import type { Repeats } from "./presentation/repeats.ts";
import { closeLoneSeconds, presentSeconds } from "./presentation/second.ts";
import type { TokenStore } from "./presentation/tokens.ts";
import type { Reach } from "./reach.ts";
import type { Registry } from "./registry.ts";
import type { SlotLogger, SlotOps } from "./slot-ops.ts";

/** What the slot's operations are given (slot.ts builds it). */
export interface OperationsDeps {
  core: Core;
  presentations: PresentationStore;
  tokens: TokenStore;
  registry: Registry;
  teller: ClosedTeller;
  logger: SlotLogger;
  now: () => string;
  load: (questionId: string) => Question | undefined;
  attention: Attention;
  later: LaterStore;
  reach: Reach;
  repeats: Repeats;
}

/** Frees the slot of a presentation nobody will answer or update: its question is shown again. */
export function supersede(
  deps: OperationsDeps,
  open: Presentation,
  outcome: { text: string; reply: string },
): void {
  const { presentations, tokens, logger, now } = deps;
  if (!presentations.close(open.seq, "superseded", outcome.text, now())) return;
  tokens.markPresentationUsed(open.seq, outcome.reply, now());
  logger.info({ question: open.questionId, surface: open.surface }, outcome.text);
}

/** The ledger brought in step with the box and with the processes that show presentations. */
export async function reconcile(
  deps: OperationsDeps,
  ops: SlotOps,
  progress: { started: boolean },
): Promise<void> {
  const { core, presentations, registry, teller, now, load } = deps;
  // A card a dead writer half-changed on disk is not its committed state: finish or undo
  // that write first, or a tap could be refused (and the slot move on) over an answer
  // that is then rolled back.
  await settleInterruptedWrites(core);
  await teller.tellUntold();
  if (!progress.started) {
    // A claim left by a process that died while sending: Telegram may have shown it (the
    // process died before recording where), or not. The question is shown again; the
    // claim is superseded, not forgotten, so a tap on a copy that did arrive replays a
    // line that points to the newer message and answers nothing.
    const open = presentations.open();
    // Only this process's own surfaces: another process (a `qbridge serve` next to a
    // `qbridge chat`) may be sending its claim right now.
    // A chat's claim is its own process's: it is taken over below once that process is gone.
    const presenter = open && registry.presenterFor(open.surface);
    if (open?.state === "queued" && presenter && !presenter.livesWithProcess) {
      supersede(deps, open, closures.RESENT);
    }
    progress.started = true;
  }
  // A presentation whose screen was a process that has quit or was killed (a chat) shows
  // nothing to anyone: the slot is taken over, at start and on every tick. Its screen is
  // gone, so there is no message to update.
  const held = presentations.open();
  if (held && !registry.mine(held) && registry.orphaned(held)) {
    supersede(deps, held, closures.LEFT);
    presentations.told(held.seq, now());
  }
  // A presentation on a surface this process does not run is closed by the process that
  // does, so its message is edited; closing it here would leave that message as it was.
  const open = presentations.open();
  const mine = open && registry.mine(open) ? open : undefined;
  // One read of its card per look: whether it closed, and whether its deadline moved.
  const card = mine && load(mine.questionId);
  const closure = mine ? await closeIfStale(deps, mine, card) : undefined;
  const moved = mine && !closure && movedDeadlineAside(mine, card, core.box.clock.now());
  if (mine && moved) {
    await ops.show(mine.questionId, { again: true, aside: moved, bySlot: true });
  } else {
    await ops.fill(closure !== undefined && closure.kind !== "changed");
  }
  await closeLoneSeconds(deps);
  await presentSeconds(deps);
}

/** Closes `open` when its card closed, changed, or was put off; undefined while it stands. */
export async function closeIfStale(
  deps: OperationsDeps,
  open: Presentation,
  card: Question | undefined,
): Promise<Closure | undefined> {
  const { core, presentations, teller, logger, now, later, attention } = deps;
  let closure: Closure | undefined;
  let state: "resolved" | "superseded" | "parked" = "resolved";
  const until = later.until(open.questionId);
  if (card?.status !== "pending") {
    closure = closures.closureOf(card);
    if (!card) state = "superseded";
  } else if (!shownAsIs(card, open.cardHash)) {
    closure = closures.closureOf(card);
    state = "superseded";
  } else if (until && new Date(until).getTime() > core.box.clock.now().getTime()) {
    // Put off ("Later") by this process or another (the web page): it leaves the slot.
    closure = {
      ...closures.laterClosure(backAt(new Date(until), core.box.clock.now(), attention.timeZone)),
      card,
    };
    state = "parked";
  }
  if (!closure) return undefined;
  if (presentations.close(open.seq, state, closure.text, now())) {
    logger.info({ question: open.questionId, outcome: closure.text }, "presentation closed");
    await teller.tell(open, closure);
  }
  return closure;
}
