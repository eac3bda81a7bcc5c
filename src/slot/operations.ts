// The slot's queue operations: present, fill, show, park, answer, dismiss, settle (presenting
// one question is present.ts; the reconciliation that keeps the ledger's presentations in step
// with the box and with the processes that show them is reconcile.ts). They assume the slot's
// lock is held (slot.ts takes it).

import { isAgentPrompt, priorityOf } from "../card/question.ts";
import { answerQuestion } from "../questions/answer.ts";
import { dismissQuestion } from "../questions/close.ts";
import { pendingQuestions, type QuestionView } from "../questions/state.ts";
import { quietEnds } from "./attention/attention.ts";
import { dueQueue } from "./order.ts";
import * as closures from "./presentation/closure.ts";
import { forgetClosedElsewhere } from "./presentation/forget-closed.ts";
import { present } from "./presentation/present.ts";
import type { Presentation } from "./presentation/records.ts";
import { closeLoneSeconds } from "./presentation/second.ts";
import { closeIfStale, type OperationsDeps, reconcile, supersede } from "./reconcile.ts";
import type { SlotOps } from "./slot-ops.ts";

export type { OperationsDeps };

export function createOperations(deps: OperationsDeps): SlotOps {
  const { presentations, registry, load } = deps;
  const progress = { started: false };
  const ops: SlotOps = {
    reconcile: () => reconcile(deps, ops, progress),
    closeIfStale: (open, card = load(open.questionId)) => closeIfStale(deps, open, card),
    fill: (afterClose = false) => fill(deps, afterClose),
    next: () => next(deps),
    show: (questionId, options = {}) => show(deps, questionId, options),
    park: () => park(deps, ops),
    putOff: (questionId, until) => putOff(deps, ops, questionId, until),
    async answer(questionId, attempt, surface, options) {
      const result = await answerQuestion(deps.core, questionId, attempt, surface, options);
      return { result, closed: closeAfterTransition(deps, questionId) };
    },
    async dismiss(questionId, surface) {
      const result = await dismissQuestion(deps.core, questionId, surface);
      return { result, closed: closeAfterTransition(deps, questionId) };
    },
    async settle(closed) {
      if (closed) await deps.teller.tell(closed, closures.closureOf(load(closed.questionId)));
      await closeLoneSeconds(deps);
      await ops.fill(closed !== undefined);
    },
    leave: () => leave(deps),
    waiting: () => waiting(deps),
    current: () => presentations.open(),
    mine: (presentation) => registry.mine(presentation),
  };
  return ops;
}

/** Presents through the first ready presenter; one that fails is held off a while (reach.ts). */
async function presentQuestion(
  deps: OperationsDeps,
  question: QuestionView,
  pending: QuestionView[],
  how: { anyway?: boolean; asked?: boolean } = {},
) {
  return (await present(deps, question, pending, how)).presented;
}

/**
 * The pending questions in slot order, without those already past their expiry: the next
 * sweep expires them, so they are neither shown nor counted as waiting ("3 more waiting").
 * Questions put off ("Later") count as waiting but are not ready until their time.
 */
function queue({ core, load, later, presentations }: OperationsDeps) {
  const at = core.box.clock.now();
  const all = pendingQuestions(core).pending;
  forgetClosedElsewhere(all, load, { later, presentations });
  const { live, ready, parked } = dueQueue(all, at, later.waiting(at), presentations.parked());
  return { pending: live, ready, parked };
}

/** During quiet hours the slot presents only `high` questions by itself. */
function mayFill({ core, attention }: OperationsDeps, question: QuestionView): boolean {
  return !quietEnds(core.box.clock.now(), attention) || priorityOf(question.card) === "high";
}

function closeAfterTransition(deps: OperationsDeps, questionId: string): Presentation | undefined {
  const { presentations, later, load, now } = deps;
  presentations.unpark(questionId);
  later.clear(questionId);
  const open = presentations.open();
  if (!open || open.questionId !== questionId) return undefined;
  const closure = closures.closureOf(load(questionId));
  if (!presentations.close(open.seq, "resolved", closure.text, now())) return undefined;
  // Told by `settle`; until then (and if that fails) the ledger keeps it untold for the watcher.
  return presentations.get(open.seq) ?? open;
}

async function fill(deps: OperationsDeps, afterClose: boolean) {
  const open = deps.presentations.open();
  if (open) return makeRoom(deps, open);
  if (!deps.registry.presenters.some((p) => p.ready() && deps.reach.open(p.surface))) return;
  const { pending, ready, parked } = queue(deps);
  const fits = (q: QuestionView) => mayFill(deps, q) && deps.repeats.mayPresent(q.id);
  const first = ready.find(fits) ?? (afterClose ? parked.find(fits) : undefined);
  return first ? presentQuestion(deps, first, pending) : undefined;
}

/**
 * A question an agent waits on takes the slot from an ordinary one this process shows: that one
 * goes back to the queue, nothing recorded (order.ts).
 */
async function makeRoom(deps: OperationsDeps, open: Presentation) {
  if (open.state !== "presented" || !deps.registry.mine(open)) return undefined;
  const shown = deps.load(open.questionId);
  if (!shown || isAgentPrompt(shown)) return undefined;
  const { ready } = queue(deps);
  const first = ready[0];
  if (!first || !isAgentPrompt(first.card) || !mayFill(deps, first)) return undefined;
  return show(deps, first.id, { bySlot: true });
}

async function next(deps: OperationsDeps) {
  if (deps.presentations.open()) return { presented: undefined, busy: true };
  const { pending, ready, parked } = queue(deps);
  const first = ready[0] ?? parked[0];
  return {
    presented: first ? await presentQuestion(deps, first, pending, { anyway: true }) : undefined,
    busy: false,
  };
}

async function show(
  deps: OperationsDeps,
  questionId: string,
  options: Parameters<SlotOps["show"]>[1] & object,
) {
  const { presentations, teller, load, now } = deps;
  const open = presentations.open();
  if (open?.questionId === questionId && !options.again) return open;
  const { pending } = queue(deps);
  const wanted = pending.find((q) => q.id === questionId);
  if (!wanted || (options.bySlot && !deps.repeats.mayPresent(questionId))) return undefined;
  const aside =
    options.aside ?? (open?.questionId === questionId ? closures.MOVED : closures.SET_ASIDE);
  if (open && presentations.close(open.seq, "superseded", aside.text, now())) {
    await teller.tell(open, { ...aside, card: load(open.questionId) });
  }
  return presentQuestion(deps, wanted, pending, { asked: !options.bySlot });
}

async function park(deps: OperationsDeps, ops: SlotOps) {
  const { presentations, teller, logger, load, now } = deps;
  const open = presentations.open();
  if (!open) return undefined;
  if (!presentations.close(open.seq, "parked", closures.PARKED.text, now())) return undefined;
  presentations.park(open.questionId, now());
  logger.info({ question: open.questionId }, "parked");
  await teller.tell(open, { ...closures.PARKED, card: load(open.questionId) });
  await ops.fill();
  return open;
}

async function putOff(deps: OperationsDeps, ops: SlotOps, questionId: string, until: Date) {
  const { presentations, later, logger, load, now } = deps;
  if (load(questionId)?.status !== "pending") return false;
  later.put(questionId, until, now());
  presentations.unpark(questionId);
  logger.info({ question: questionId, until: until.toISOString() }, "put off");
  const open = presentations.open();
  if (open?.questionId === questionId && (await ops.closeIfStale(open))) await ops.fill(true);
  return true;
}

/** Gives up this process's presentation (a chat that quits); the question stays pending. */
async function leave(deps: OperationsDeps): Promise<void> {
  const { presentations, registry, now } = deps;
  const open = presentations.open();
  if (open && registry.mine(open) && open.holder !== undefined) {
    supersede(deps, open, closures.LEFT);
    presentations.told(open.seq, now());
  }
  await registry.release();
}

function waiting(deps: OperationsDeps) {
  const open = deps.presentations.open();
  const { pending, ready, parked } = queue(deps);
  const presented = open?.state === "presented" ? open : undefined;
  const top =
    (presented && pending.find((q) => q.id === presented.questionId)) ?? ready[0] ?? parked[0];
  return { count: pending.length, top, presented };
}
