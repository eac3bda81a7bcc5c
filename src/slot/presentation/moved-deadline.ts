// A question on screen whose deadline moved since it was shown: given more time elsewhere
// (qbridge extend, the web page, the API) while a chat shows "Expires in 2 days". The slot
// shows it again with its new deadline, as an Extend tap does, so no screen says an old one.

import type { Question } from "../../card/question.ts";
import { deadlineOf, expiryWords } from "../../questions/deadline.ts";
import { extendedClosure } from "./closure.ts";
import type { Closure } from "./presenter.ts";
import type { Presentation } from "./records.ts";

/** The aside the old screen gets before the question is shown again; undefined: unmoved. */
export function movedDeadlineAside(
  open: Presentation,
  card: Question | undefined,
  now: Date,
): Omit<Closure, "card"> | undefined {
  // A presentation made before deadlines were kept, or still being sent, is left as it is.
  if (open.state !== "presented" || open.deadline === undefined) return undefined;
  if (card?.status !== "pending") return undefined;
  const deadline = deadlineOf(card);
  if (deadline.toISOString() === open.deadline) return undefined;
  const expires = expiryWords(deadline, now);
  // Later is more time; earlier is a card edited by hand (its asked-at or expires-after).
  return deadline.getTime() > Date.parse(open.deadline)
    ? extendedClosure(expires)
    : { kind: "set-aside", text: `its deadline was moved: it ${expires}; shown again below` };
}
