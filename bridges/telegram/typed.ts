// A typed reply. A reply-to a presentation targets that question; otherwise the presented one.
// The text becomes an answer attempt (letter, label, "Label - note", yes/no, free text) and goes
// through the slot like a tap. What does not resolve gets a one-line clarification; a reply to
// a question already answered is audited and told what happened and what is open now.

import type { Context } from "grammy";
import type { Question } from "../../src/card/question.ts";
import { resolveAnswer } from "../../src/card/resolve.ts";
import { safeAudit } from "../../src/questions/audit.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { attemptFromText, confirmingQuestion, needsConfirming } from "../../src/slot/attempt.ts";
import { closureOf } from "../../src/slot/closure.ts";
import type { Presentation } from "../../src/slot/presentations.ts";
import type { Slot } from "../../src/slot/slot.ts";
import { escapeWithin, flat } from "./html.ts";
import { wordsLayout } from "./keyboard.ts";
import { SURFACE } from "./presenter.ts";
import { waitingHtml } from "./render.ts";
import { replyForError } from "./replies.ts";

const WAITING_QUESTION = /^\s*(what('?s| is)?\s+)?(is\s+)?waiting(\s+on\s+me)?\s*\??\s*$/i;

export function createTypedReplyHandler(deps: { slot: Slot }) {
  const { slot } = deps;

  async function sayWaiting(ctx: Context): Promise<void> {
    const { count, top, presented } = slot.waiting();
    await ctx.reply(waitingHtml(count, top?.card, presented !== undefined), {
      parse_mode: "HTML",
      ...(presented?.messageId
        ? { reply_parameters: { message_id: Number(presented.messageId) } }
        : {}),
    });
  }

  function openNowLine(): string {
    const { top, presented } = slot.waiting();
    if (!top) return "Nothing else is waiting on you.";
    return `${presented ? "Open now" : "Next"}: <b>${escapeWithin(flat(top.card.prompt), 600)}</b>`;
  }

  /**
   * A reply without reply-to means the question on screen when it was written. A message
   * older than the open presentation (redelivered after a restart that moved the slot on) was
   * written for the one shown before it, never for the open one. A question claimed but not
   * yet sent (a dead process's claim, or a send in flight) was on nobody's screen: the message
   * was meant for the one shown before it, unless that one was parked (the screen said so).
   */
  function meantFor(open: Presentation | undefined, chatId: string, messageId: number) {
    if (!open) return undefined;
    if (open.messageId === undefined) {
      const before = slot.presentations.shownBefore(SURFACE, chatId, messageId);
      return before?.state === "parked" ? undefined : before;
    }
    if (open.chatId !== chatId || Number(open.messageId) < messageId) return open;
    return slot.presentations.shownBefore(SURFACE, chatId, messageId);
  }

  return async function handleText(ctx: Context): Promise<void> {
    const message = ctx.message;
    if (!message?.text) return;
    const text = message.text;
    const replyTo = message.reply_to_message;
    const quoted = replyTo
      ? slot.presentations.byMessage(SURFACE, String(message.chat.id), String(replyTo.message_id))
      : undefined;
    if (!quoted && WAITING_QUESTION.test(text)) return sayWaiting(ctx);
    const by = String(message.from?.id);
    const answerTo = { reply_parameters: { message_id: message.message_id } };

    await slot.exclusive(async (ops) => {
      const target = quoted ?? meantFor(ops.current(), String(message.chat.id), message.message_id);
      if (!target) {
        await ctx.reply(
          `Nothing is open right now, so "${escapeWithin(flat(text), 60)}" was not recorded. /waiting shows what waits.`,
          { parse_mode: "HTML", ...answerTo },
        );
        return;
      }
      let card: ReturnType<typeof loadQuestion>["card"];
      try {
        card = loadQuestion(slot.core, target.questionId).card;
      } catch (error) {
        await ctx.reply(replyForError(error), answerTo);
        return;
      }
      if (card.status === "answered") {
        // The same person's same answer already there means this message was redelivered after
        // a restart cut its handling short (or sent twice): it is confirmed, not refused. Any
        // other late reply is recorded and refused with what happened and what is open now.
        const same = isRecordedAnswer(card, text, by);
        safeAudit(slot.core, {
          at: slot.core.box.clock.iso(),
          questionId: target.questionId,
          surface: SURFACE,
          actor: by,
          action: "late-reply",
          verbatim: text,
          outcome: same ? "already-recorded" : "not-applied",
          detail: closureOf(card).text,
        });
        await ctx.reply(
          same
            ? `✅ Recorded: ${escapeWithin(card.answer?.text ?? "", 1000)}`
            : `Not recorded: that question was already ${escapeWithin(closureOf(card).text, 600)}.\n${openNowLine()}`,
          { parse_mode: "HTML", ...answerTo },
        );
        if (ops.current()?.seq === target.seq) await ops.reconcile();
        return;
      }
      if (needsConfirming(card, text)) {
        // Final once recorded: a stray key is asked about first, with buttons on this reply.
        const layout = wordsLayout(text.trim());
        const chatId = String(message.chat.id);
        const owner = {
          presentationSeq: target.seq,
          questionId: target.questionId,
          cardHash: target.cardHash,
        };
        const tokens = slot.tokens.mint(owner, chatId, layout.specs, slot.core.box.clock.iso());
        // Plain text: the typed character is shown as it is, with nothing to escape.
        const sent = await ctx.reply(confirmingQuestion(text), {
          reply_markup: layout.build(tokens),
          ...answerTo,
        });
        slot.tokens.sentIn(tokens, String(sent.message_id));
        return;
      }
      try {
        const { result, closed } = await ops.answer(
          target.questionId,
          attemptFromText(card, text),
          { via: SURFACE, by },
          { fingerprint: target.cardHash },
        );
        if (closed)
          slot.tokens.markPresentationUsed(
            closed.seq,
            `✅ Recorded: ${result.answer.text}`,
            result.answeredAt,
          );
        await ctx.reply(`✅ Recorded: ${escapeWithin(result.answer.text, 1000)}`, {
          parse_mode: "HTML",
          ...answerTo,
        });
        await ops.settle(closed);
      } catch (error) {
        await ctx.reply(replyForError(error), answerTo);
      }
    });
  };
}

/** True when the card holds exactly the answer `text` gives, recorded from this Telegram user. */
function isRecordedAnswer(card: Question, text: string, by: string): boolean {
  if (card["answered-via"] !== SURFACE || card["answered-by"] !== by || !card.answer) return false;
  try {
    const again = resolveAnswer(card, attemptFromText(card, text));
    const { answer } = card;
    return (
      again.text === answer.text && again.selected === answer.selected && again.note === answer.note
    );
  } catch {
    return false;
  }
}

export { WAITING_QUESTION };
