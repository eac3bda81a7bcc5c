// The single decision slot: at most one question is presented to the boxholder at a time,
// across every bridge; the rest wait in queue order. The slot decides what is shown and when,
// keeps the ledger's presentations in step with the box, and asks the bridges (presenters) to
// show or update messages. It never renders anything and never imports a bridge. This file
// composes it: its contract (slot-ops.ts), the registry of presenters (registry.ts), the queue
// operations (operations.ts), the closed-message retries (closed-teller.ts), the watcher.
//
// Every operation runs under one in-process lock, so a tap, the watcher and the sweep never
// interleave their changes. `exclusive` lends a bridge the unlocked operations for a sequence
// that must not interleave (check a tap, answer, record, acknowledge, move on).

import type { Question } from "../card/question.ts";
import { CardUnreadable, QuestionNotFound } from "../errors.ts";
import { createMutex } from "../mutex.ts";
import type { Nudger } from "../questions/aging.ts";
import type { Core } from "../questions/core.ts";
import { loadQuestion } from "../questions/store.ts";
import { ALWAYS_AWAKE, type Attention, quietEnds } from "./attention/attention.ts";
import { LaterStore } from "./attention/later.ts";
import { Inbox } from "./inbox.ts";
import { createOperations, type OperationsDeps } from "./operations.ts";
import { Owners } from "./owner.ts";
import { createClosedTeller } from "./presentation/closed-teller.ts";
import { tellExpired } from "./presentation/expiry-notice.ts";
import type { Presenter } from "./presentation/presenter.ts";
import { PresentationStore } from "./presentation/records.ts";
import { createRepeats } from "./presentation/repeats.ts";
import { TokenStore } from "./presentation/tokens.ts";
import { createReach } from "./reach.ts";
import { createRegistry } from "./registry.ts";
import type { SlotLogger, SlotOps } from "./slot-ops.ts";
import { createUpkeep, type Upkeep } from "./upkeep.ts";
import { type SlotWatcher, watchSlot } from "./watcher.ts";

export type { Closed, SlotLogger, SlotOps, Waiting } from "./slot-ops.ts";

const quietLogger: SlotLogger = { info() {}, warn() {}, error() {} };

export interface Slot extends SlotOps {
  readonly core: Core;
  readonly presentations: PresentationStore;
  readonly tokens: TokenStore;
  readonly inbox: Inbox;
  readonly owners: Owners;
  readonly later: LaterStore;
  /** Quiet hours and the box's time zone, as the slot applies them. */
  readonly attention: Attention;
  attach(presenter: Presenter): void;
  /** How many characters of a prompt `surface`'s presenter here shows whole (Presenter.shows). */
  shownChars(surface: string): number;
  /** Runs `fn` holding the slot's lock, with the operations that do not take it again. */
  exclusive<T>(fn: (ops: SlotOps) => Promise<T>): Promise<T>;
  /** The aging sweep's nudge, delivered by the bridge that can. */
  nudger(): Nudger;
  /**
   * The boxholder wrote on `surface`: a chat held off as refusing messages takes them again.
   * True when it was held off (the bridge then fills the slot).
   */
  heard(surface: string): boolean;
  /** Tells the boxholder once, in one message, of questions that expired since last told. */
  tellExpired(): Promise<string[]>;
  /**
   * Reconciles now, then every `intervalMs` and whenever the questions folder changes,
   * catching cards changed by other processes. While it watches, the slot records which of its
   * surfaces deliver (what a hook asks before it files) and withdraws the questions of hooks
   * that are gone (upkeep.ts).
   */
  watch(intervalMs?: number): void;
  /** Stops watching, waits for the operation in flight, and leaves (see `leave`). */
  close(): Promise<void>;
}

/** `wallClock` (ms, Date.now by default): what a failing chat service is retried on (reach.ts). */
export function createSlot(deps: {
  core: Core;
  logger?: SlotLogger;
  attention?: Attention;
  wallClock?: () => number;
}): Slot {
  const { core } = deps;
  const logger = deps.logger ?? quietLogger;
  const attention = deps.attention ?? ALWAYS_AWAKE;
  const later = core.ledger.store(LaterStore);
  const presentations = core.ledger.store(PresentationStore);
  const tokens = core.ledger.store(TokenStore);
  const registry = createRegistry(core.box.paths.locksDir, logger);
  const now = () => core.box.clock.iso();
  const load = (id: string) => loadCard(core, id);
  const reach = createReach({ now: () => core.box.clock.now(), logger, wallClock: deps.wallClock });
  const repeats = createRepeats({ wallClock: deps.wallClock ?? Date.now, logger });
  const teller = createClosedTeller({ presentations, registry, logger, now, load, reach });
  const parts: OperationsDeps = {
    core,
    presentations,
    tokens,
    registry,
    teller,
    logger,
    now,
    load,
    attention,
    later,
    reach,
    repeats,
  };
  return lockedSlot(parts, createOperations(parts));
}

/** The slot over `ops`: each operation that changes the slot runs under the slot's one lock. */
function lockedSlot(parts: OperationsDeps, ops: SlotOps): Slot {
  const { core, presentations, tokens, registry, logger, attention, later, reach } = parts;
  const mutex = createMutex();
  const lock = <T>(fn: () => Promise<T>): Promise<T> => mutex.run(fn);
  let watcher: SlotWatcher | undefined;
  let upkeep: Upkeep | undefined;

  const locked = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    ((...args: A) => lock(() => fn(...args))) as (...args: A) => Promise<R>;

  return {
    core,
    presentations,
    tokens,
    inbox: core.ledger.store(Inbox),
    owners: core.ledger.store(Owners),
    later,
    attention,
    reconcile: locked(ops.reconcile),
    fill: locked(ops.fill),
    next: locked(ops.next),
    show: locked(ops.show),
    park: locked(ops.park),
    putOff: locked(ops.putOff),
    answer: locked(ops.answer),
    dismiss: locked(ops.dismiss),
    settle: locked(ops.settle),
    closeIfStale: locked(ops.closeIfStale),
    leave: locked(ops.leave),
    waiting: () => ops.waiting(),
    current: () => ops.current(),
    mine: (presentation) => ops.mine(presentation),
    attach(presenter) {
      registry.attach(presenter);
    },
    shownChars: (surface) => registry.presenterFor(surface)?.shows ?? 0,
    exclusive: (fn) => lock(() => fn(ops)),
    nudger: () => (question) => nudge(parts, question),
    tellExpired: () => lock(() => tellExpiredNow(parts)),
    heard: (surface) => reach.heard(surface),
    watch(intervalMs = 1_000) {
      if (watcher) return;
      const kept = createUpkeep({ core, registry, reach, logger });
      upkeep = kept;
      watcher = watchSlot({
        box: core.box,
        intervalMs,
        reconcile: async () => {
          await kept.tick();
          await lock(ops.reconcile);
        },
        logger,
      });
    },
    async close() {
      watcher?.stop();
      watcher = undefined;
      await lock(ops.leave);
      await upkeep?.stop();
      upkeep = undefined;
    },
  };
}

/**
 * A card removed, or one nobody can read as a card, leaves the slot; a disk that fails to give
 * its bytes does not: the error goes up, the presentation stays, the next tick retries.
 */
function loadCard(core: Core, id: string): Question | undefined {
  try {
    return loadQuestion(core, id).card;
  } catch (error) {
    if (error instanceof QuestionNotFound || error instanceof CardUnreadable) return undefined;
    throw error;
  }
}

/**
 * The aging sweep's nudge through the first presenter that delivers it. Nudges wait out quiet
 * hours and a question's Later time: not delivered, so the first sweep after them sends it.
 */
async function nudge(parts: OperationsDeps, question: Parameters<Nudger>[0]): Promise<boolean> {
  const { core, attention, later, presentations, registry, reach } = parts;
  const now = core.box.clock.now();
  if (quietEnds(now, attention) || later.waiting(now).has(question.id)) return false;
  const open = presentations.open();
  const presented = open?.questionId === question.id ? open : undefined;
  for (const presenter of registry.presenters) {
    if (!presenter.nudge || !presenter.ready() || !reach.open(presenter.surface)) continue;
    const nudge = () => presenter.nudge?.(question, presented) ?? Promise.resolve(false);
    if (await reach.through(presenter.surface, nudge)) return true;
  }
  return false;
}

/** Tells the boxholder of expired questions through every reachable presenter (not in quiet hours). */
async function tellExpiredNow(parts: OperationsDeps): Promise<string[]> {
  const { core, attention, registry, reach } = parts;
  if (quietEnds(core.box.clock.now(), attention)) return [];
  const open = registry.presenters.filter((p) => reach.open(p.surface));
  return tellExpired(core, open, (presenter, questions) =>
    reach.through(
      presenter.surface,
      () => presenter.expired?.(questions) ?? Promise.resolve(false),
    ),
  );
}
