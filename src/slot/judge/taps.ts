// The judge's checks for a tap on a button, and for a command on the open question, in
// DESIGN.md's order, each failure changing nothing: the token is known; the person is the
// boxholder; the token was not used already (then its reply is replayed); it was tapped where
// it was sent; the presentation is current; the question is still pending; its card is
// unchanged since it was shown. Only then the action's entry (actions.ts) decides. A callback
// delivered again needs no replay of its own: a used token replays its reply, a closed
// presentation refuses, and a card already answered by this tap is confirmed from the card.

import { shownAsIs } from "../../card/fingerprint.ts";
import type { Question } from "../../card/question.ts";
import { loadQuestion } from "../../questions/store.ts";
import { closureOf, midSentence } from "../presentation/closure.ts";
import type { Presentation } from "../presentation/records.ts";
import type { ButtonSpec, ButtonToken } from "../presentation/tokens.ts";
import { ACTIONS, changed } from "./actions.ts";
import type { ButtonAttempt, CommandAttempt, Judging, Outcome } from "./attempt.ts";
import { BOX_COMMANDS, isBoxCommand } from "./box-commands.ts";
import { pickOf } from "./picks.ts";
import { type Act, actOf, mayAct, type Refusal } from "./who.ts";

export const UNKNOWN_REPLY =
  "This button is not known here (it may be from before a reset). Nothing was done.";
export const ELSEWHERE_REPLY = "This button does not belong to this message. Nothing was done.";
export const STRANGER_REPLY = "Only the boxholder can answer here. Nothing was recorded.";

/** Someone the judge does not know as the boxholder: nothing of theirs is looked at or kept. */
export function strangerOutcome(token?: ButtonToken): Outcome {
  return {
    kind: "not-for-us",
    name: "refused:stranger",
    reason: "stranger",
    reply: STRANGER_REPLY,
    token,
  };
}

export const BOXHOLDER_ONLY_REPLY = "Only the boxholder can do that. Nothing was changed.";

/** The outcome of an act refused to whoever tried it (who.ts decides). */
export function refusedOutcome(refusal: Refusal, token?: ButtonToken): Outcome {
  switch (refusal.reason) {
    case "stranger":
      return strangerOutcome(token);
    case "boxholder-only":
      return {
        kind: "refused",
        name: "refused:boxholder-only",
        reason: "boxholder-only",
        reply: BOXHOLDER_ONLY_REPLY,
        token,
      };
    case "not-own-surface":
      return {
        kind: "refused",
        name: "refused:not-own-surface",
        reason: "not-own-surface",
        reply: `Not recorded: ${refusal.error.message}.`,
        error: refusal.error,
        token,
      };
  }
}

/** The refusal when `j.who` may not do `act` (on the question `id`, when it is about one). */
function refused(
  j: Judging,
  act: Act,
  question?: { id: string; card: Question },
  token?: ButtonToken,
): Outcome | undefined {
  const refusal = mayAct(j.who, act, question);
  return refusal ? refusedOutcome(refusal, token) : undefined;
}

function loadCard(j: Judging, id: string): Question | undefined {
  try {
    return loadQuestion(j.slot.core, id).card;
  } catch {
    return undefined;
  }
}

export async function judgeButton(j: Judging, a: ButtonAttempt): Promise<Outcome> {
  const token = j.slot.tokens.get(a.token);
  if (!token) {
    return {
      kind: "refused",
      name: "refused:unknown-token",
      reason: "unknown-token",
      reply: UNKNOWN_REPLY,
    };
  }
  if (j.who.trust === "stranger") return strangerOutcome(token);
  if (token.usedAt && token.usedReply) {
    return { kind: "replayed", name: "replayed", reply: token.usedReply, token };
  }
  if (!a.where || a.where.chatId !== token.chatId || a.where.messageId !== token.messageId) {
    return {
      kind: "refused",
      name: "refused:elsewhere",
      reason: "elsewhere",
      reply: ELSEWHERE_REPLY,
      token,
    };
  }
  const entry = ACTIONS[token.action];
  const act = actOf(token.action);
  if (entry.needs === "token") {
    return (
      refused(j, act, undefined, token) ?? {
        token,
        ...(await entry.decide({ ...j, attempt: a, token })),
      }
    );
  }

  const open = j.ops.current();
  if (!open || open.seq !== token.presentationSeq) {
    return { token, ...notCurrent(j, token, entry.replaysFromCard === true) };
  }
  const card = loadCard(j, token.questionId);
  // The presentation's hash, minted by the slot when it presented; a token minted for another
  // rendering of the card (none is, through withButtons) is as stale as an edited card.
  const checked: Outcome | undefined =
    token.cardHash === open.cardHash ? await checkOpen(j, open, card) : await changed(j, open);
  if (checked) return { token, ...checked };
  const no = refused(j, act, { id: token.questionId, card: card as Question }, token);
  if (no) return { card, target: open, ...no };
  const surface = { via: j.who.via, by: j.who.by };
  const outcome = await entry.decide({
    ...j,
    attempt: a,
    spec: token,
    token,
    open,
    card: card as Question,
    surface,
  });
  return { token, card, target: open, ...outcome };
}

/**
 * A command: a box command (next, waiting, grants, revoke) as its entry says; any other, on the
 * open question, the same entry as its button, on what is shown now.
 */
export async function judgeCommand(j: Judging, a: CommandAttempt): Promise<Outcome> {
  if (j.who.trust === "stranger") return strangerOutcome();
  const act = actOf(a.action);
  if (isBoxCommand(a.action)) {
    return refused(j, act) ?? (await BOX_COMMANDS[a.action]({ ...j, attempt: a }));
  }
  const open = j.ops.current();
  if (!open) {
    return {
      kind: "not-for-us",
      name: "refused:nothing-open",
      reason: "nothing-open",
      reply: `Nothing is open to ${a.action}.`,
    };
  }
  if (!j.ops.mine(open)) {
    return {
      kind: "not-for-us",
      name: "refused:held-elsewhere",
      reason: "held-elsewhere",
      reply: heldElsewhereReply(open),
      target: open,
    };
  }
  const entry = ACTIONS[a.action];
  if (entry.needs !== "presented") {
    return {
      kind: "not-for-us",
      name: "refused:not-a-command",
      reason: "error",
      reply: `${a.action} needs its button.`,
    };
  }
  const card = loadCard(j, open.questionId);
  const checked = await checkOpen(j, open, card);
  if (checked) return { target: open, ...checked };
  const no = refused(j, act, { id: open.questionId, card: card as Question });
  if (no) return { target: open, card, ...no };
  const spec: ButtonSpec = { action: a.action, optionId: a.optionId, label: a.label };
  const surface = { via: j.who.via, by: j.who.by };
  const outcome = await entry.decide({
    ...j,
    attempt: a,
    spec,
    token: undefined,
    open,
    card: card as Question,
    surface,
  });
  return { target: open, card, ...outcome };
}

/** The open question is still pending and unchanged since it was presented; else the refusal. */
async function checkOpen(
  j: Judging,
  open: Presentation,
  card: Question | undefined,
): Promise<Outcome | undefined> {
  if (card?.status !== "pending") {
    const closure = (await j.ops.closeIfStale(open)) ?? closureOf(card);
    return {
      kind: "refused",
      name: "refused:closed",
      reason: "closed",
      reply: `Not recorded: meanwhile this question was ${midSentence(closure.text)}.`,
      closure,
      after: () => j.ops.fill().then(() => undefined),
    };
  }
  if (!shownAsIs(card, open.cardHash)) return changed(j, open);
  return undefined;
}

/** A tap on a presentation that is not the open one: confirmed from the card, or refused. */
function notCurrent(j: Judging, token: ButtonToken, replays: boolean): Outcome {
  const card = replays ? loadCard(j, token.questionId) : undefined;
  const pick = pickOf(j.slot, token);
  if (
    card?.status === "answered" &&
    card["answered-via"] === j.who.via &&
    card["answered-by"] === j.who.by &&
    card.answer !== undefined &&
    (pick === undefined ? card.answer.text === token.label : card.answer.selected === pick)
  ) {
    return {
      kind: "replayed",
      name: "replayed",
      reply: `✅ Recorded: ${card.answer.text}`,
      answer: card.answer,
      relayout: "drop",
    };
  }
  const earlier = token.presentationSeq
    ? j.slot.presentations.get(token.presentationSeq)
    : undefined;
  return {
    kind: "refused",
    name: "refused:not-current",
    reason: "not-current",
    reply: `This question is no longer open here${earlier?.outcome ? `: ${earlier.outcome}` : ""}. Nothing was done.`,
    relayout: "drop",
  };
}

/** The open question is shown by another process (another chat, or a serve on another surface). */
export function heldElsewhereReply(open: Presentation): string {
  return `The open question is shown on ${open.surface} by another process: answer it there. Nothing was recorded.`;
}
