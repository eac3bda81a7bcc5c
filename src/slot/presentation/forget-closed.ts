// The put-offs (Later) and parks of questions another process closed: answered at the CLI or on
// another service's web page. The process that closes a question clears only what it shows, so
// the slot forgets the rest when it next reads its queue. A question the queue did not list is
// forgotten only when its card reads as closed or gone: one asked since is never forgotten.

import type { Question } from "../../card/question.ts";
import type { QuestionView } from "../../questions/state.ts";
import type { LaterStore } from "../attention/later.ts";
import type { PresentationStore } from "./records.ts";

export function forgetClosedElsewhere(
  pending: QuestionView[],
  load: (questionId: string) => Question | undefined,
  stores: { later: LaterStore; presentations: PresentationStore },
): void {
  const listed = new Set(pending.map((q) => q.id));
  const stillPending = (id: string) => listed.has(id) || load(id)?.status === "pending";
  stores.later.forgetClosed(stillPending);
  stores.presentations.forgetClosedParks(stillPending);
}
