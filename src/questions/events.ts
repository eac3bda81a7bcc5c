// Told in-process after a transition commits: waiters (waiter.ts) and the webhook outbox wake on
// it instead of polling. Other processes' transitions reach waiters through fs.watch instead.
// A listener's failure never reaches the transition that announced it.

import { EventEmitter } from "node:events";
import type { Status } from "../card/question.ts";

export interface QuestionTransitioned {
  /** The box's root directory: one process may hold several boxes. */
  root: string;
  id: string;
  status: Status;
  commit: string;
}

const emitter = new EventEmitter();
emitter.setMaxListeners(0);

/** Calls `listener` after every transition this process commits; returns the unsubscribe. */
export function onQuestionTransitioned(
  listener: (event: QuestionTransitioned) => void,
): () => void {
  const safe = (event: QuestionTransitioned) => {
    try {
      listener(event);
    } catch {
      // The transition is committed; a listener that throws cannot undo or fail it.
    }
  };
  emitter.on("transitioned", safe);
  return () => emitter.off("transitioned", safe);
}

export function announceTransitioned(event: QuestionTransitioned): void {
  emitter.emit("transitioned", event);
}
