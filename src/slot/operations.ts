// The slot's queue operations: present, fill, show, park, answer, dismiss, settle, and the
// reconciliation that keeps the ledger's presentations in step with the box and with the
// processes that show them (presenting one question is present.ts). They assume the slot's
// lock is held (slot.ts takes it).

import { shownAsIs } from "../card/fingerprint.ts";
import { priorityOf, type Question } from "../card/question.ts";
import { answerQuestion } from "../questions/answer.ts";
import { dismissQuestion } from "../questions/close.ts";
import type { Core } from "../questions/core.ts";
import { pendingQuestions, type QuestionView } from "../questions/state.ts";
import { settleInterruptedWrites } from "../questions/transition.ts";
import { type Attention, quietEnds } from "./attention/attention.ts";
import { backAt, type LaterStore } from "./attention/later.ts";
import { dueQueue } from "./order.ts";
import type { ClosedTeller } from "./presentation/closed-teller.ts";
import * as closures from "./presentation/closure.ts";
import { forgetClosedElsewhere } from "./presentation/forget-closed.ts";
import { movedDeadlineAside } from "./presentation/moved-deadline.ts";
import { present } from "./presentation/present.ts";
import type { Closure } from "./presentation/presenter.ts";
import type { Presentation, PresentationStore } from "./presentation/records.ts";
import type { TokenStore } from "./presentation/tokens.ts";
import type { Reach } from "./reach.ts";
import type { Registry } from "./registry.ts";
import type { SlotLogger, SlotOps } from "./slot.ts";

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
}

export function createOperations(deps: OperationsDeps): SlotOps {
  const { core, presentations, tokens, registry, teller, logger, now, load, attention, later } =
    deps;
  let started = false;

  /** Presents through the first ready presenter; one that fails is held off a while (reach.ts). */
  async function presentQuestion(question: QuestionView, pending: QuestionView[], anyway = false) {
    return (await present(deps, question, pending, anyway)).presented;
  }

  /**
   * The pending questions in slot order, without those already past their expiry: the next
   * sweep expires them, so they are neither shown nor counted as waiting ("3 more waiting").
   * Questions put off ("Later") count as waiting but are not ready until their time.
   */
  function queue() {
    const at = core.box.clock.now();
    const all = pendingQuestions(core).pending;
    forgetClosedElsewhere(all, load, { later, presentations });
    const { live, ready, parked } = dueQueue(all, at, later.waiting(at), presentations.parked());
    return { pending: live, ready, parked };
  }

  /** During quiet hours the slot presents only `high` questions by itself. */
  function mayFill(question: QuestionView): boolean {
    return !quietEnds(core.box.clock.now(), attention) || priorityOf(question.card) === "high";
  }

  /** Frees the slot of a presentation nobody will answer or update: its question is shown again. */
  function supersede(open: Presentation, outcome: { text: string; reply: string }): void {
    if (!presentations.close(open.seq, "superseded", outcome.text, now())) return;
    tokens.markPresentationUsed(open.seq, outcome.reply, now());
    logger.info({ question: open.questionId, surface: open.surface }, outcome.text);
  }

  function closeAfterTransition(questionId: string): Presentation | undefined {
    presentations.unpark(questionId);
    later.clear(questionId);
    const open = presentations.open();
    if (!open || open.questionId !== questionId) return undefined;
    const closure = closures.closureOf(load(questionId));
    if (!presentations.close(open.seq, "resolved", closure.text, now())) return undefined;
    // Told by `settle`; until then (and if that fails) the ledger keeps it untold for the watcher.
    return presentations.get(open.seq) ?? open;
  }

  const ops: SlotOps = {
    async reconcile() {
      // A card a dead writer half-changed on disk is not its committed state: finish or undo
      // that write first, or a tap could be refused (and the slot move on) over an answer
      // that is then rolled back.
      await settleInterruptedWrites(core);
      await teller.tellUntold();
      if (!started) {
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
          supersede(open, closures.RESENT);
        }
        started = true;
      }
      // A presentation whose screen was a process that has quit or was killed (a chat) shows
      // nothing to anyone: the slot is taken over, at start and on every tick. Its screen is
      // gone, so there is no message to update.
      const held = presentations.open();
      if (held && !registry.mine(held) && registry.orphaned(held)) {
        supersede(held, closures.LEFT);
        presentations.told(held.seq, now());
      }
      // A presentation on a surface this process does not run is closed by the process that
      // does, so its message is edited; closing it here would leave that message as it was.
      const open = presentations.open();
      const mine = open && registry.mine(open) ? open : undefined;
      // One read of its card per look: whether it closed, and whether its deadline moved.
      const card = mine && load(mine.questionId);
      const closure = mine ? await ops.closeIfStale(mine, card) : undefined;
      const moved = mine && !closure && movedDeadlineAside(mine, card, core.box.clock.now());
      if (mine && moved) {
        await ops.show(mine.questionId, { again: true, aside: moved });
        return;
      }
      await ops.fill(closure !== undefined && closure.kind !== "changed");
    },

    async closeIfStale(open, card = load(open.questionId)) {
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
          ...closures.laterClosure(
            backAt(new Date(until), core.box.clock.now(), attention.timeZone),
          ),
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
    },

    async fill(afterClose = false) {
      if (presentations.open()) return undefined;
      if (!registry.presenters.some((p) => p.ready() && deps.reach.open(p.surface))) return;
      const { pending, ready, parked } = queue();
      const first = ready.find(mayFill) ?? (afterClose ? parked.find(mayFill) : undefined);
      return first ? presentQuestion(first, pending) : undefined;
    },

    async next() {
      if (presentations.open()) return { presented: undefined, busy: true };
      const { pending, ready, parked } = queue();
      const first = ready[0] ?? parked[0];
      return {
        presented: first ? await presentQuestion(first, pending, true) : undefined,
        busy: false,
      };
    },

    async show(questionId, options = {}) {
      const open = presentations.open();
      if (open?.questionId === questionId && !options.again) return open;
      const { pending } = queue();
      const wanted = pending.find((q) => q.id === questionId);
      if (!wanted) return undefined;
      const aside =
        options.aside ?? (open?.questionId === questionId ? closures.MOVED : closures.SET_ASIDE);
      if (open && presentations.close(open.seq, "superseded", aside.text, now())) {
        await teller.tell(open, { ...aside, card: load(open.questionId) });
      }
      return presentQuestion(wanted, pending);
    },

    async park() {
      const open = presentations.open();
      if (!open) return undefined;
      if (!presentations.close(open.seq, "parked", closures.PARKED.text, now())) return undefined;
      presentations.park(open.questionId, now());
      logger.info({ question: open.questionId }, "parked");
      await teller.tell(open, { ...closures.PARKED, card: load(open.questionId) });
      await ops.fill();
      return open;
    },

    async putOff(questionId, until) {
      if (load(questionId)?.status !== "pending") return false;
      later.put(questionId, until, now());
      presentations.unpark(questionId);
      logger.info({ question: questionId, until: until.toISOString() }, "put off");
      const open = presentations.open();
      if (open?.questionId === questionId && (await ops.closeIfStale(open))) await ops.fill(true);
      return true;
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
      if (closed) await teller.tell(closed, closures.closureOf(load(closed.questionId)));
      await ops.fill(closed !== undefined);
    },

    async leave() {
      const open = presentations.open();
      if (open && registry.mine(open) && open.holder !== undefined) {
        supersede(open, closures.LEFT);
        presentations.told(open.seq, now());
      }
      await registry.release();
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

    mine(presentation) {
      return registry.mine(presentation);
    },
  };
  return ops;
}
