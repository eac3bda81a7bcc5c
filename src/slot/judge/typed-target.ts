// Which question typed text is for. A reply-to a presentation targets that question; a reply to
// a message whose buttons are about other questions (a nudge, a digest) targets none; otherwise
// the one that was on screen when the text was written (the open one, unless the text is older
// than it). And whether a bare yes or no answers the confirming question of typed words.

import { loadQuestion } from "../../questions/store.ts";
import type { Presentation } from "../presentation/records.ts";
import type { ButtonToken } from "../presentation/tokens.ts";
import type { Judging, Outcome, TextAttempt } from "./attempt.ts";

/**
 * A text without reply-to means the question on screen when it was written. A message older
 * than the open presentation (redelivered after a restart that moved the slot on) was written
 * for the one shown before it, never for the open one. A question claimed but not yet sent (a
 * dead process's claim, or a send in flight) was on nobody's screen: the message was meant for
 * the one shown before it, unless that one was parked (the screen said so).
 */
function meantFor(j: Judging, a: TextAttempt): Presentation | undefined {
  const open = j.ops.current();
  if (!open || a.chatId === undefined || a.messageId === undefined) return open;
  const { presentations } = j.slot;
  if (open.messageId === undefined) {
    const before = presentations.shownBefore(j.who.via, a.chatId, a.messageId);
    return before?.state === "parked" ? undefined : before;
  }
  if (open.chatId !== a.chatId || Number(open.messageId) < a.messageId) return open;
  return presentations.shownBefore(j.who.via, a.chatId, a.messageId);
}

/** The presentation a typed text is for: the one it quotes, else the one meant. */
export function targetOf(j: Judging, a: TextAttempt): Presentation | undefined {
  const quoted =
    a.replyTo !== undefined && a.chatId !== undefined
      ? j.slot.presentations.byMessage(j.who.via, a.chatId, a.replyTo)
      : undefined;
  return quoted ?? meantFor(j, a);
}

/** A question's prompt in quotes, for a refusal that names it. */
function quotedPrompt(j: Judging, id: string): string {
  try {
    return `“${loadQuestion(j.slot.core, id).card.prompt}”`;
  } catch {
    return "another question";
  }
}

/**
 * A reply to a message whose buttons are about other questions than `target` (a nudge's
 * "Show it", a digest's lines), or written in another question's thread (an e-mail answering
 * the note that said what was recorded), was meant for one of those, never for the open
 * question: the refusal that says so, naming the question when there is one. Undefined when
 * it may go on.
 */
export function quotesOtherQuestion(
  j: Judging,
  a: TextAttempt,
  target: Presentation,
): Outcome | undefined {
  if (a.replyTo === undefined || a.chatId === undefined) return undefined;
  if (target.messageId === a.replyTo && target.chatId === a.chatId) return undefined;
  const thread =
    a.thread === undefined
      ? undefined
      : j.slot.presentations.byMessage(j.who.via, a.chatId, a.thread);
  if (thread && thread.questionId !== target.questionId) {
    return {
      kind: "refused",
      name: "refused:other-question",
      reason: "not-current",
      reply: `Not recorded: your reply is in the thread of ${quotedPrompt(j, thread.questionId)}, not of the open question. Reply to the open question's own message.`,
    };
  }
  const about = j.slot.tokens.questionsOn(a.chatId, a.replyTo);
  if (about.length === 0 || about.includes(target.questionId)) return undefined;
  const which = about.length === 1 ? quotedPrompt(j, about[0] as string) : "other questions";
  return {
    kind: "refused",
    name: "refused:other-question",
    reason: "not-current",
    reply: `Not recorded: the message you replied to is about ${which}, not the open question. Tap that message's button to show it here first, or reply to the open question itself.`,
  };
}

/**
 * The typed words the chat was last asked to confirm for `target`, when `a` is a bare yes or no
 * to that question: written in the chat after the question was asked, and not a reply to the
 * question's own message (there a yes or no is an answer to the question). A reply to one of
 * the messages that asked confirms that message's words, never a newer ask's; none when they
 * were confirmed or declined already.
 */
export function askedWords(
  j: Judging,
  a: TextAttempt,
  target: Presentation,
): ButtonToken | undefined {
  if (a.confirmed || a.chatId === undefined || !/^(y|yes|n|no)[.!]?$/i.test(a.text.trim())) {
    return undefined;
  }
  if (a.replyTo !== undefined && a.replyTo === target.messageId) return undefined;
  const { tokens } = j.slot;
  const replied =
    a.replyTo === undefined ? undefined : tokens.askedOn(target.seq, a.chatId, a.replyTo);
  if (replied?.usedAt !== undefined) return undefined;
  const asked = replied ?? tokens.askedWords(target.seq, a.chatId);
  if (!asked?.messageId) return undefined;
  if (a.messageId !== undefined && Number(asked.messageId) > a.messageId) return undefined;
  return asked;
}
