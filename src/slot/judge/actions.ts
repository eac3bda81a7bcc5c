// What each button (or command) does once the judge has checked it: one entry per action.
// An entry says what it needs checked first and decides the outcome; the judge did the rest
// (token known, unused, tapped where it was sent; for "presented" entries also: the
// presentation is the open one, its card pending and unchanged since shown). Adding an action
// is one entry here, its name in ButtonAction (tokens.ts), and a rendering case in the bridges
// when it needs one (see docs/BRIDGES.md).
// Over 250 lines on purpose: it is one table, read entry by entry; splitting it would hide
// the list of what a button can do.

import { AGENT_WAITS, mayWait, OTHER_OPTION, type Question } from "../../card/question.ts";
import { CardChanged } from "../../errors.ts";
import { expiryWords } from "../../questions/deadline.ts";
import { extendQuestion } from "../../questions/extend.ts";
import { similarQuestions } from "../../questions/similar.ts";
import { loadQuestion } from "../../questions/store.ts";
import { backAt, LATER_CHOICES, laterOptions } from "../attention/later.ts";
import { closureOf, extendedClosure, midSentence } from "../presentation/closure.ts";
import type { Presentation } from "../presentation/records.ts";
import type { ButtonAction } from "../presentation/tokens.ts";
import type { ActionEntry, Outcome, PresentedContext } from "./attempt.ts";
import { otherReply, wordsDropped } from "./confirm-words.ts";
import { confirmPicks, sendable, toggleEntry } from "./picks.ts";
import { acceptEntry, triageEntry } from "./triage-actions.ts";

export const CHANGED_REPLY =
  "Not recorded: this question was edited since it was shown. Here it is again.";

/** The refusal of an answer whose card was edited: the stale presentation closes, it is shown anew. */
export async function changed(c: Pick<PresentedContext, "ops">, open: Presentation) {
  await c.ops.closeIfStale(open);
  return {
    kind: "refused",
    name: "refused:changed",
    reason: "changed",
    reply: CHANGED_REPLY,
    after: () => c.ops.fill().then(() => undefined),
  } satisfies Outcome;
}

/**
 * An answer or dismissal went through: every button of the presentation replays this reply
 * from now on (recorded before the bridge acknowledges), then the slot moves on.
 */
function finished(
  c: PresentedContext,
  outcome: Omit<Outcome, "kind">,
  closed: Presentation | undefined,
): Outcome {
  c.slot.tokens.markPresentationUsed(c.open.seq, outcome.reply, c.now());
  return { kind: "recorded", ...outcome, after: () => c.ops.settle(closed) };
}

async function answer(c: PresentedContext, note?: string): Promise<Outcome> {
  const { spec, open } = c;
  try {
    // The fingerprint is checked again inside the question's lock: an edit that lands
    // between the judge's checks and the transition still refuses the tap.
    // A confirmed option answers with its id; confirmed typed words (no option) with the words.
    const { result, closed } = await c.ops.answer(
      open.questionId,
      // `option`: a button names its option by id, never to be read as another's label.
      { text: spec.optionId ?? spec.label ?? "", option: spec.optionId, note },
      c.surface,
      { fingerprint: open.cardHash },
    );
    const reply = `✅ Recorded: ${result.answer.text}`;
    return finished(c, { name: "answered", reply, answer: result.answer }, closed);
  } catch (error) {
    if (!(error instanceof CardChanged)) throw error;
    return changed(c, open);
  }
}

/** Park, Later and Extend on a question an agent waits on: refused, nothing changed. */
function agentWaits(c: PresentedContext): Outcome | undefined {
  if (mayWait(c.card)) return undefined;
  const reply = `Nothing changed: ${AGENT_WAITS}.`;
  return { kind: "refused", name: "refused:agent-waits", reason: "error", reply };
}

/** The answer "same" records when typed: the one a presentation would offer as a button. */
function sameOffer(c: PresentedContext): { optionId: string; from: string } | undefined {
  if (c.card.irreversible) return undefined;
  const best = similarQuestions(c.slot.core, c.card, c.open.questionId)[0];
  return best?.reusable ? { optionId: best.reusable.optionId, from: best.id } : undefined;
}

export const ACTIONS: Record<ButtonAction, ActionEntry> = {
  answer: {
    needs: "presented",
    replaysFromCard: true,
    async decide(c) {
      if (c.spec.optionId === OTHER_OPTION) {
        return {
          kind: "clarification",
          name: "needs-words",
          reason: "needs-words",
          reply: otherReply(c.card),
        };
      }
      if (c.card.irreversible) {
        return {
          kind: "needs-confirmation",
          name: "confirm-asked",
          reply: `Confirm ${c.spec.label}? It cannot be undone.`,
          relayout: "confirm",
        };
      }
      return answer(c);
    },
  },

  confirm: {
    needs: "presented",
    replaysFromCard: true,
    async decide(c) {
      const outcome = await answer(c);
      // Confirmed typed words: their confirming message loses its buttons too.
      if (c.spec.optionId === undefined && outcome.name === "answered") {
        return { ...outcome, relayout: "drop" };
      }
      return outcome;
    },
  },

  back: {
    needs: "presented",
    async decide(c) {
      if (c.spec.optionId === undefined) {
        // The confirming step of typed words: nothing is recorded, the question stays open.
        const reply = wordsDropped(c.spec.label ?? "");
        const { token } = c;
        if (token?.messageId) {
          c.slot.tokens.markMessageUsed(token.chatId, token.messageId, reply, c.now());
        }
        return { kind: "recorded", name: "words-dropped", reply, relayout: "drop" };
      }
      const picks = c.slot.presentations.picks(c.open.seq);
      return {
        kind: "recorded",
        name: "back",
        reply: "Back to the choices.",
        relayout: "choices",
        picks,
      };
    },
  },

  park: {
    needs: "presented",
    async decide(c) {
      const refused = agentWaits(c);
      if (refused) return refused;
      return {
        kind: "recorded",
        name: "parked",
        reply: "Parked: it stays pending behind the queue.",
        after: async () => {
          await c.ops.park();
        },
      };
    },
  },

  dismiss: {
    needs: "presented",
    async decide(c) {
      const { closed } = await c.ops.dismiss(c.open.questionId, c.surface);
      return finished(
        c,
        { name: "dismissed", reply: "Dismissed (it stays answerable later)." },
        closed,
      );
    },
  },

  // "Same as last time": the answer of the similar question it came from, recorded through the
  // core like any tap, with a note naming that question. Offered only where it fits (last-time.ts);
  // as a typed command (the terminal's "same") the offer is looked up now, the same way.
  same: {
    needs: "presented",
    replaysFromCard: true,
    async decide(c) {
      const offer = c.spec.optionId
        ? { optionId: c.spec.optionId, from: c.spec.label ?? "an earlier answer" }
        : sameOffer(c);
      if (!offer) {
        return {
          kind: "refused",
          name: "refused:nothing-to-repeat",
          reason: "error",
          reply: "No earlier answer fits this question; nothing was recorded.",
        };
      }
      return answer(
        { ...c, spec: { ...c.spec, optionId: offer.optionId } },
        `same as ${offer.from}`,
      );
    },
  },

  // Extend: more time, one commit; the question is shown again with its new deadline.
  extend: {
    needs: "presented",
    async decide(c) {
      const refused = agentWaits(c);
      if (refused) return refused;
      const id = c.open.questionId;
      const result = await extendQuestion(c.slot.core, id, c.spec.label ?? "P7D", c.surface);
      const expires = expiryWords(new Date(result.expiresAt), c.slot.core.box.clock.now());
      return {
        kind: "recorded",
        name: "extended",
        reply: `⏳ Extended: it ${expires}.`,
        after: async () => {
          await c.ops.show(id, { again: true, aside: extendedClosure(expires) });
        },
      };
    },
  },

  // [⏰ Later] (or /later) offers the times; a time's button puts the question off until then.
  later: {
    needs: "presented",
    async decide(c) {
      const refused = agentWaits(c);
      if (refused) return refused;
      const { timeZone } = c.slot.attention;
      const now = c.slot.core.box.clock.now();
      const later = laterOptions(now, timeZone);
      const option = later.find((o) => o.choice === c.spec.optionId);
      if (!option) {
        const reply =
          c.spec.optionId === undefined
            ? "When should it come back?"
            : (LATER_CHOICES as readonly string[]).includes(c.spec.optionId)
              ? "That time has passed: pick another."
              : `"${c.spec.optionId}" is not one of the times: pick one.`;
        return { kind: "clarification", name: "later-asked", reply, relayout: "later", later };
      }
      const reply = `⏰ Later: back ${backAt(option.until, now, timeZone)}.`;
      c.slot.tokens.markPresentationUsed(c.open.seq, reply, c.now());
      return {
        kind: "recorded",
        name: "put-off",
        reply,
        after: async () => {
          await c.ops.putOff(c.open.questionId, option.until);
        },
      };
    },
  },

  show: {
    needs: "token",
    async decide(c) {
      let card: Question | undefined;
      try {
        card = loadQuestion(c.slot.core, c.token.questionId).card;
      } catch {
        card = undefined;
      }
      if (card?.status !== "pending") {
        const closure = closureOf(card);
        return {
          kind: "refused",
          name: "refused:closed",
          reason: "closed",
          reply: `That question is ${midSentence(closure.text)}.`,
          closure,
          relayout: "drop",
        };
      }
      return {
        kind: "recorded",
        name: "show",
        reply: "Here it is.",
        after: async () => {
          await c.ops.show(c.token.questionId);
        },
      };
    },
  },

  triage: triageEntry,
  accept: acceptEntry,

  // A multi-select: a toggle picks or unpicks one option (the ledger only); Send records the
  // picks as one answer, asked about first on an irreversible question (picks.ts).
  toggle: toggleEntry,
  send: {
    needs: "presented",
    replaysFromCard: true,
    async decide(c) {
      const pick = sendable(c);
      if ("kind" in pick) return pick;
      if (c.card.irreversible) return confirmPicks(pick);
      return answer({ ...c, spec: { ...c.spec, ...pick } });
    },
  },
};
