// What happened to a question that left the slot, as one line a person reads.

import type { Question } from "../../card/question.ts";
import type { Closure } from "./presenter.ts";

export function closureOf(card: Question | undefined): Closure {
  if (!card) return { kind: "removed", text: "removed from the box", card };
  switch (card.status) {
    case "answered": {
      const note = card.answer?.note ? ` (note: ${card.answer.note})` : "";
      return {
        kind: "answered",
        text: `answered via ${card["answered-via"]}: ${card.answer?.text ?? ""}${note}`,
        card,
      };
    }
    case "dismissed":
      return { kind: "dismissed", text: "dismissed (it stays answerable)", card };
    case "expired":
      return { kind: "expired", text: "expired unanswered (it stays answerable)", card };
    case "withdrawn": {
      const reason = card["withdrawn-reason"] ? `: ${card["withdrawn-reason"]}` : "";
      return { kind: "withdrawn", text: `Withdrawn by the asker${reason}`, card };
    }
    case "pending":
      return { kind: "changed", text: "changed since it was shown", card };
  }
}

export const PARKED: Omit<Closure, "card"> = {
  kind: "parked",
  // How to bring it back differs per surface (/next in Telegram, next at a keyboard): each
  // bridge adds its own hint.
  text: "parked: it stays pending behind the queue",
};

export const SET_ASIDE: Omit<Closure, "card"> = {
  kind: "set-aside",
  text: "set aside for another question: it stays pending in the queue",
};

/** A question shown to a boxholder who was replaced: it is shown again to the new one. */
export const MOVED: Omit<Closure, "card"> = {
  kind: "set-aside",
  text: "moved to the new boxholder: nothing was done here",
};

/** A question the boxholder gave more time: shown again below with its new deadline. */
export function extendedClosure(expires: string): Omit<Closure, "card"> {
  return { kind: "set-aside", text: `extended: it ${expires}; shown again below` };
}

/** A send a restart cut short: the question is shown again in a newer message. */
export const RESENT = {
  text: "shown again after a restart",
  reply: "This copy was shown again after a restart: use the newer message. Nothing was done.",
};

/** A presentation whose screen was a chat that ended: the question is shown again elsewhere. */
export const LEFT = {
  text: "left open when its chat ended: it stays pending",
  reply: "The chat that showed this question has ended. Nothing was done.",
};

/** A question put off by the boxholder ("Later"); it comes back by itself at that time. */
export function laterClosure(back: string): Omit<Closure, "card"> {
  return { kind: "later", text: `later: back ${back}; it stays pending` };
}

/** A closure's words inside a sentence ("was withdrawn by the asker"), not at its start. */
export function midSentence(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
