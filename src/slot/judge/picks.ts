// The judge's part of a multi-select on a chat: a toggle tap picks or unpicks one option of the
// open presentation, in the ledger and nowhere else (nothing is recorded on the card), and Send
// hands the picks to the answer path as one pick of several ids, checked as a tap on one option
// is (the judge checked the presentation, the boxholder and the card hash before either). What
// the picks are made of is the input type's (src/card/inputs/); the buttons are the bridge's.

import { inputTypeOf, OTHER_OPTION, type Question } from "../../card/question.ts";
import { letterOf } from "../../card/resolve.ts";
import type { ButtonToken } from "../presentation/tokens.ts";
import type { Slot } from "../slot.ts";
import type { ActionEntry, Outcome, PresentedContext } from "./attempt.ts";

/** How a pick state is written: the picked option ids, as an answer's `selected` joins them. */
const JOIN = ",";

/**
 * A tap on a multi-select's option: its pick flips; the buttons are redrawn with the picks (and
 * new tokens: the tapped one is used).
 */
export const toggleEntry: ActionEntry = {
  needs: "presented",
  async decide(c) {
    const options = inputTypeOf(c.card.input).options(c.card.input);
    const option = options.find((o) => o.id === c.spec.optionId);
    if (!option) {
      return {
        kind: "refused",
        name: "refused:no-such-option",
        reason: "changed",
        reply: "That option is not on this question any more. Nothing was picked.",
      };
    }
    const before = c.slot.presentations.picks(c.open.seq);
    const on = !before.includes(option.id);
    const picks = options
      .filter((o) => (o.id === option.id ? on : before.includes(o.id)))
      .map((o) => o.id);
    c.slot.presentations.setPicks(c.open.seq, picks);
    const count = `${picks.length} picked`;
    const reply = `${on ? "Picked" : "Unpicked"}: ${option.label} (${count}). Send records the picks.`;
    // One tap flips once: the same button again (a double tap, a redelivery) replays this reply;
    // the buttons redrawn with the picks carry new tokens for the next flip.
    if (c.token) c.slot.tokens.markUsed(c.token.token, reply, c.now());
    return {
      kind: "recorded",
      name: on ? "picked" : "unpicked",
      reply,
      relayout: "choices",
      picks,
    };
  },
};

/**
 * What Send sends: the picks as one pick of several ids and their words, or why it cannot (none
 * picked; the option for one's own words picked, whose words a tap cannot carry).
 */
export function sendable(c: PresentedContext): { optionId: string; label: string } | Outcome {
  const picks = c.slot.presentations.picks(c.open.seq);
  if (picks.length === 0) {
    return {
      kind: "clarification",
      name: "nothing-picked",
      reply: "Nothing is picked yet: tap the options you pick, then Send.",
    };
  }
  const options = inputTypeOf(c.card.input).options(c.card.input);
  if (picks.includes(OTHER_OPTION)) return ownWordsReply(c.card, picks);
  const label = options
    .filter((o) => picks.includes(o.id))
    .map((o) => o.label)
    .join(", ");
  return { optionId: picks.join(JOIN), label };
}

/** The picks with the option for one's own words: they are typed, with the words after them. */
function ownWordsReply(card: Question, picks: string[]): Outcome {
  const options = inputTypeOf(card.input).options(card.input);
  const letters = options
    .map((o, i) => (picks.includes(o.id) ? letterOf(i) : undefined))
    .filter((letter) => letter !== undefined)
    .join(", ");
  return {
    kind: "clarification",
    name: "needs-words",
    reason: "needs-words",
    reply: `Reply with your picks and your own words after them: "${letters} - …", e.g. "${letters} - the shoebox under the desk".`,
  };
}

/** An irreversible question's Send: the picks are asked about first, as a tapped option is. */
export function confirmPicks(pick: { optionId: string; label: string }): Outcome {
  return {
    kind: "needs-confirmation",
    name: "confirm-asked",
    reply: `Confirm ${pick.label}? It cannot be undone.`,
    relayout: "confirm",
    pick,
  };
}

/**
 * The pick a used Send (or any button) of `token` stood for, as `answer.selected` records it:
 * a Send's, its presentation's picks; another button's, its option.
 */
export function pickOf(slot: Slot, token: ButtonToken): string | undefined {
  if (token.action !== "send") return token.optionId;
  const seq = token.presentationSeq;
  return seq === undefined ? undefined : slot.presentations.picks(seq).join(JOIN) || undefined;
}
