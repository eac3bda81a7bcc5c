// The single decision slot: at most one question is presented to the boxholder at a time,
// across every bridge; the rest wait in queue order. The slot decides what is shown and when,
// keeps the ledger's presentations in step with the box, and asks the bridges (presenters) to
// show or update messages. It never renders anything and never imports a bridge.
//
// Every operation runs under one in-process lock, so a tap, the watcher and the sweep never
// interleave their changes. `exclusive` lends a bridge the unlocked operations for a sequence
// that must not interleave (check a tap, answer, record, acknowledge, move on).

import { type FSWatcher, watch } from "node:fs";
import { questionFingerprint } from "../card/load.ts";
import type { Question } from "../card/question.ts";
import type { AnswerAttempt } from "../card/resolve.ts";
import type { Nudger } from "../questions/aging.ts";
import {
  type AnswerOptions,
  type AnswerResult,
  answerQuestion,
  type Surface,
} from "../questions/answer.ts";
import { type CloseResult, dismissQuestion } from "../questions/close.ts";
import type { Core } from "../questions/core.ts";
import { pendingQuestions, type QuestionView } from "../questions/state.ts";
import { loadQuestion } from "../questions/store.ts";
import { settleInterruptedWrites } from "../questions/transition.ts";
import { closureOf, PARKED, RESENT, SET_ASIDE } from "./closure.ts";
import { Inbox } from "./inbox.ts";
import { queueOrder } from "./order.ts";
import { Owners } from "./owner.ts";
import { type Presentation, PresentationStore } from "./presentations.ts";
import type { Closure, Presenter } from "./presenter.ts";
import { TokenStore } from "./tokens.ts";

export interface SlotLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const quietLogger: SlotLogger = { info() {}, warn() {}, error() {} };

export interface Waiting {
  /** Pending questions, the presented one included. */
  count: number;
  /** The presented question, else the one the slot would present next. */
  top: QuestionView | undefined;
  /** The open presentation, when a question is presented. */
  presented: Presentation | undefined;
}

/** A question the slot closed; `settle` tells its bridge and presents the next question. */
export interface Closed<T> {
  result: T;
  closed: Presentation | undefined;
}

/** The operations of the slot; under `exclusive` they run without taking the lock again. */
export interface SlotOps {
  /** Brings the ledger in step with the box (closed, edited, deleted cards), then fills the slot. */
  reconcile(): Promise<void>;
  /**
   * Presents the next question when the slot is free. Parked ones wait behind the queue: they
   * come back only when `afterClose` (the slot moves on from an answer or dismissal) and
   * nothing else is ready, so parking the last question does not bring it straight back.
   */
  fill(afterClose?: boolean): Promise<Presentation | undefined>;
  /** Presents the next question, parked ones included, when the slot is free. */
  next(): Promise<{ presented: Presentation | undefined; busy: boolean }>;
  /** Presents this question now; the presented one (if another) is set aside, still queued. */
  show(questionId: string): Promise<Presentation | undefined>;
  /** Parks the presented question (it stays pending, behind the queue) and presents the next. */
  park(): Promise<Presentation | undefined>;
  /** The one answer path for every bridge: the core's transition, then the slot moves on. */
  answer(
    questionId: string,
    attempt: AnswerAttempt,
    surface: Surface,
    options?: AnswerOptions,
  ): Promise<Closed<AnswerResult>>;
  dismiss(questionId: string, surface: Surface): Promise<Closed<CloseResult>>;
  /** After an answer or dismissal: the bridge updates the closed message, the next is shown. */
  settle(closed: Presentation | undefined): Promise<void>;
  /** Closes the open presentation if it is this one and its question is no longer pending. */
  closeIfStale(presentation: Presentation): Promise<Closure | undefined>;
  waiting(): Waiting;
  current(): Presentation | undefined;
}

export interface Slot extends SlotOps {
  readonly core: Core;
  readonly presentations: PresentationStore;
  readonly tokens: TokenStore;
  readonly inbox: Inbox;
  readonly owners: Owners;
  attach(presenter: Presenter): void;
  /** Runs `fn` holding the slot's lock, with the operations that do not take it again. */
  exclusive<T>(fn: (ops: SlotOps) => Promise<T>): Promise<T>;
  /** The aging sweep's nudge, delivered by the bridge that can. */
  nudger(): Nudger;
  /**
   * Reconciles now, then every `intervalMs` and whenever the questions folder changes,
   * catching cards changed by other processes.
   */
  watch(intervalMs?: number): void;
  /** Stops watching and waits for the operation in flight. */
  close(): Promise<void>;
}

export function createSlot(deps: { core: Core; logger?: SlotLogger }): Slot {
  const { core } = deps;
  const logger = deps.logger ?? quietLogger;
  const presentations = new PresentationStore(core.ledger.db);
  const tokens = new TokenStore(core.ledger.db);
  const inbox = new Inbox(core.ledger.db);
  const owners = new Owners(core.ledger.db);
  const presenters: Presenter[] = [];
  const now = () => core.box.clock.iso();
  let chain: Promise<unknown> = Promise.resolve();
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let folderWatch: FSWatcher | undefined;
  let retryAt = 0;

  const presenterFor = (surface: string) => presenters.find((p) => p.surface === surface);

  function lock<T>(fn: () => Promise<T>): Promise<T> {
    const run = chain.then(fn, fn);
    chain = run.catch(() => undefined);
    return run;
  }

  function tryLoad(id: string): Question | undefined {
    try {
      return loadQuestion(core, id).card;
    } catch {
      return undefined;
    }
  }

  // Closed presentations whose message still shows the question: the edit failed (the chat
  // service was down) or never ran (the acknowledgement before it failed, or the process was
  // killed first). The ledger remembers them; each watcher tick tries again, a bounded number
  // of times, so a closed question never keeps live-looking buttons because of one bad minute
  // or one crash. Only the process that runs the surface tells it.
  const MAX_TELL_TRIES = 30;

  async function tell(presentation: Presentation, closure: Closure): Promise<void> {
    const presenter = presenterFor(presentation.surface);
    if (!presenter || presentation.messageId === undefined) return;
    try {
      await presenter.closed(presentation, closure);
      presentations.told(presentation.seq, now());
    } catch (error) {
      presentations.tellFailed(presentation.seq);
      logger.warn(
        { err: error, question: presentation.questionId },
        "could not update a closed presentation",
      );
    }
  }

  async function tellUntold(): Promise<void> {
    const surfaces = presenters.map((p) => p.surface);
    for (const closed of presentations.untold(surfaces, MAX_TELL_TRIES)) {
      const card = tryLoad(closed.questionId);
      const closure =
        closed.state === "parked"
          ? { ...PARKED, card }
          : closed.outcome === SET_ASIDE.text
            ? { ...SET_ASIDE, card }
            : closureOf(card);
      await tell(closed, closure);
    }
  }

  async function presentQuestion(question: QuestionView, behind: number) {
    const ready = presenters.filter((p) => p.ready());
    if (ready.length === 0) return undefined;
    const cardHash = questionFingerprint(question.card);
    for (const presenter of ready) {
      const seq = presentations.claim(question.id, presenter.surface, cardHash, now());
      if (seq === undefined) return undefined;
      try {
        const address = await presenter.present({ seq, question, cardHash, behind });
        if (address) {
          presentations.presented(seq, address, now());
          presentations.unpark(question.id);
          logger.info({ question: question.id, surface: presenter.surface }, "presented");
          return presentations.get(seq);
        }
        presentations.release(seq);
      } catch (error) {
        presentations.release(seq);
        retryAt = Date.now() + 5_000;
        logger.warn({ err: error, question: question.id }, "could not present a question");
        return undefined;
      }
    }
    return undefined;
  }

  function queue() {
    const { pending } = pendingQuestions(core);
    return { pending, ...queueOrder(pending, presentations.parked()) };
  }

  const ops: SlotOps = {
    async reconcile() {
      // A card a dead writer half-changed on disk is not its committed state: finish or undo
      // that write first, or a tap could be refused (and the slot move on) over an answer
      // that is then rolled back.
      await settleInterruptedWrites(core);
      await tellUntold();
      if (!started) {
        // A claim left by a process that died while sending: Telegram may have shown it (the
        // process died before recording where), or not. The question is shown again; the
        // claim is superseded, not forgotten, so a tap on a copy that did arrive replays a
        // line that points to the newer message and answers nothing.
        const open = presentations.open();
        // Only this process's own surfaces: another process (a `qbridge serve` next to a
        // `qbridge chat`) may be sending its claim right now.
        if (open?.state === "queued" && presenterFor(open.surface)) {
          presentations.close(open.seq, "superseded", RESENT.text, now());
          tokens.markPresentationUsed(open.seq, RESENT.reply, now());
        }
        started = true;
      }
      // A presentation on a surface this process does not run is closed by the process that
      // does, so its message is edited; closing it here would leave that message as it was.
      const open = presentations.open();
      const closure = open && presenterFor(open.surface) ? await ops.closeIfStale(open) : undefined;
      await ops.fill(closure !== undefined && closure.kind !== "changed");
    },

    async closeIfStale(open) {
      const card = tryLoad(open.questionId);
      let closure: Closure | undefined;
      let state: "resolved" | "superseded" = "resolved";
      if (card?.status !== "pending") {
        closure = closureOf(card);
        if (!card) state = "superseded";
      } else if (questionFingerprint(card) !== open.cardHash) {
        closure = closureOf(card);
        state = "superseded";
      }
      if (!closure) return undefined;
      if (presentations.close(open.seq, state, closure.text, now())) {
        logger.info({ question: open.questionId, outcome: closure.text }, "presentation closed");
        await tell(open, closure);
      }
      return closure;
    },

    async fill(afterClose = false) {
      if (presentations.open() || Date.now() < retryAt) return undefined;
      if (!presenters.some((p) => p.ready())) return undefined;
      const { pending, ready, parked } = queue();
      const first = ready[0] ?? (afterClose ? parked[0] : undefined);
      return first ? presentQuestion(first, pending.length - 1) : undefined;
    },

    async next() {
      if (presentations.open()) return { presented: undefined, busy: true };
      const { pending, ready, parked } = queue();
      const first = ready[0] ?? parked[0];
      return {
        presented: first ? await presentQuestion(first, pending.length - 1) : undefined,
        busy: false,
      };
    },

    async show(questionId) {
      const open = presentations.open();
      if (open?.questionId === questionId) return open;
      const { pending } = queue();
      const wanted = pending.find((q) => q.id === questionId);
      if (!wanted) return undefined;
      if (open && presentations.close(open.seq, "superseded", SET_ASIDE.text, now())) {
        await tell(open, { ...SET_ASIDE, card: tryLoad(open.questionId) });
      }
      return presentQuestion(wanted, pending.length - 1);
    },

    async park() {
      const open = presentations.open();
      if (!open) return undefined;
      if (!presentations.close(open.seq, "parked", PARKED.text, now())) return undefined;
      presentations.park(open.questionId, now());
      logger.info({ question: open.questionId }, "parked");
      await tell(open, { ...PARKED, card: tryLoad(open.questionId) });
      await ops.fill();
      return open;
    },

    async answer(questionId, attempt, surface, options) {
      const result = await answerQuestion(core, questionId, attempt, surface, options);
      return { result, closed: closeAfterTransition(questionId) };
    },

    async dismiss(questionId, surface) {
      const result = await dismissQuestion(core, questionId, surface);
      return { result, closed: closeAfterTransition(questionId) };
    },

    async settle(closed) {
      if (closed) await tell(closed, closureOf(tryLoad(closed.questionId)));
      await ops.fill(closed !== undefined);
    },

    waiting() {
      const open = presentations.open();
      const { pending, ready, parked } = queue();
      const presented = open?.state === "presented" ? open : undefined;
      const top =
        (presented && pending.find((q) => q.id === presented.questionId)) ?? ready[0] ?? parked[0];
      return { count: pending.length, top, presented };
    },

    current() {
      return presentations.open();
    },
  };

  function closeAfterTransition(questionId: string): Presentation | undefined {
    presentations.unpark(questionId);
    const open = presentations.open();
    if (!open || open.questionId !== questionId) return undefined;
    const closure = closureOf(tryLoad(questionId));
    if (!presentations.close(open.seq, "resolved", closure.text, now())) return undefined;
    // Told by `settle`; until then (and if that fails) the ledger keeps it untold for the watcher.
    return presentations.get(open.seq) ?? open;
  }

  const locked = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    ((...args: A) => lock(() => fn(...args))) as (...args: A) => Promise<R>;

  return {
    core,
    presentations,
    tokens,
    inbox,
    owners,
    reconcile: locked(ops.reconcile),
    fill: locked(ops.fill),
    next: locked(ops.next),
    show: locked(ops.show),
    park: locked(ops.park),
    answer: locked(ops.answer),
    dismiss: locked(ops.dismiss),
    settle: locked(ops.settle),
    closeIfStale: locked(ops.closeIfStale),
    waiting: () => ops.waiting(),
    current: () => ops.current(),
    attach(presenter) {
      presenters.push(presenter);
    },
    exclusive: (fn) => lock(() => fn(ops)),
    nudger() {
      return async (question) => {
        const open = presentations.open();
        const presented = open?.questionId === question.id ? open : undefined;
        for (const presenter of presenters) {
          if (!presenter.nudge || !presenter.ready()) continue;
          if (await presenter.nudge(question, presented)) return true;
        }
        return false;
      };
    },
    watch(intervalMs = 1_000) {
      if (timer) return;
      let busy = false;
      let again = false;
      const tick = async () => {
        if (!timer) return; // closed
        if (busy) {
          again = true; // a change seen mid-tick gets a tick of its own
          return;
        }
        busy = true;
        try {
          do {
            again = false;
            await lock(ops.reconcile);
          } while (again && timer);
        } catch (error) {
          logger.error({ err: error }, "slot reconciliation failed");
        } finally {
          busy = false;
        }
      };
      timer = setInterval(tick, intervalMs);
      timer.unref();
      void tick();
      // The poll above catches every change (subfolders, a watcher that failed); a watch on
      // the questions folder makes the common one, a card filed or rewritten there, show at
      // once. A burst of events (a rename, a commit) is one tick.
      try {
        let soon: NodeJS.Timeout | undefined;
        folderWatch = watch(core.box.paths.questionsDir, () => {
          if (soon !== undefined || !timer) return;
          soon = setTimeout(() => {
            soon = undefined;
            void tick();
          }, 25);
        });
        folderWatch.on("error", () => folderWatch?.close());
        folderWatch.unref();
      } catch (error) {
        logger.warn({ err: error }, "cannot watch the questions folder; polling only");
      }
    },
    async close() {
      if (timer) clearInterval(timer);
      timer = undefined;
      folderWatch?.close();
      folderWatch = undefined;
      await chain;
    },
  };
}
