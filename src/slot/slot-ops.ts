// What the slot's operations promise (SlotOps) and the logger they write to: the contract
// slot.ts composes and the files that build its parts (operations, reconcile, present, reach,
// the registry, the watcher) implement or use. Types only: it imports no part of the slot.

import type { Question } from "../card/question.ts";
import type { AnswerAttempt } from "../card/resolve.ts";
import type { AnswerOptions, AnswerResult, Surface } from "../questions/answer.ts";
import type { CloseResult } from "../questions/close.ts";
import type { QuestionView } from "../questions/state.ts";
import type { Closure } from "./presentation/presenter.ts";
import type { Presentation } from "./presentation/records.ts";

export interface SlotLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

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
   * A question an agent waits on takes the slot from an ordinary one shown here (order.ts).
   */
  fill(afterClose?: boolean): Promise<Presentation | undefined>;
  /** Presents the next question, parked ones included, when the slot is free. */
  next(): Promise<{ presented: Presentation | undefined; busy: boolean }>;
  /**
   * Presents this question now; the presented one (if another) is set aside, still queued.
   * `again`: shown anew even when open, its message closed as moved; `aside` says why instead
   * (Extend: the deadline moved). `bySlot`: the slot's own re-show, held off as `fill` is when
   * tried again and again (repeats.ts); a person's show never is.
   */
  show(
    questionId: string,
    options?: { again?: boolean; aside?: Omit<Closure, "card">; bySlot?: boolean },
  ): Promise<Presentation | undefined>;
  /** Parks the presented question (it stays pending, behind the queue) and presents the next. */
  park(): Promise<Presentation | undefined>;
  /**
   * Puts a pending question off until `until` ("Later"): it leaves the slot (the next is
   * presented) and comes back by itself then. False when the question is not pending.
   */
  putOff(questionId: string, until: Date): Promise<boolean>;
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
  closeIfStale(presentation: Presentation, card?: Question): Promise<Closure | undefined>;
  /**
   * Gives up the presentation this process's screen holds (a chat that quits): the question
   * stays pending and is shown again by whichever surface is free.
   */
  leave(): Promise<void>;
  waiting(): Waiting;
  current(): Presentation | undefined;
  /** True when this process shows the presentation and may act on it. */
  mine(presentation: Presentation): boolean;
}
