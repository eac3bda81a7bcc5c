// A typed reply, translated and rendered: the message becomes a text attempt (with the message
// it replied to and what it shows of its sender), the judge (src/slot/judge/) decides who sent
// it, which question it is for and what comes of it, and the outcome becomes one reply under
// the typed message (with Yes/No buttons when it needs confirming). A late reply is told what
// happened and what is open now; a stranger gets the polite refusal.

import type { Context } from "grammy";
import type { Door, Outcome } from "../../src/slot/port.ts";
import type { Access } from "./access.ts";
import { escapeWithin, flat } from "./html.ts";
import { answerLayout, wordsLayout } from "./keyboard.ts";
import { quoting } from "./presenter.ts";
import { relayout } from "./relayout.ts";
import { putOffText, waitingHtml } from "./render.ts";
import { replyForError } from "./replies.ts";

/** Said under a message the boxholder edited: each message is read once, as first sent. */
export const EDITED_REPLY =
  "An edited message is not read again: it was taken as first sent (my reply to it says what came of it). Send a new message instead.";

const WAITING_QUESTION = /^\s*(what('?s| is)?\s+)?(is\s+)?waiting(\s+on\s+me)?\s*\??\s*$/i;

export interface TypedDeps {
  door: Door;
  access: Access;
  /** The signed web link of a question, for the choices a typed no brings back. */
  link: (questionId: string) => string | undefined;
}

/** Reply parameters that put a reply under the typed message, even if it was deleted. */
type AnswerTo = {
  reply_parameters: { message_id: number; allow_sending_without_reply: boolean };
};

/** Turns each typed message into a text attempt and renders the judge's outcome under it. */
export function createTypedReplyHandler(deps: TypedDeps) {
  const { door, access } = deps;
  return async function handleText(ctx: Context): Promise<void> {
    const message = ctx.message;
    // Text of any content is an attempt, empty too: the judge refuses and audits a stranger's.
    if (message?.text === undefined) return;
    const text = message.text;
    const chatId = String(message.chat.id);
    const replyTo = message.reply_to_message;
    const quoted = replyTo ? door.quoted(chatId, String(replyTo.message_id)) : undefined;
    if (!quoted && WAITING_QUESTION.test(text)) return sayWaiting(deps, ctx);
    const answerTo = {
      reply_parameters: { message_id: message.message_id, allow_sending_without_reply: true },
    };

    await door.attempt(
      {
        kind: "text",
        proof: access.proof(ctx),
        text,
        chatId,
        messageId: message.message_id,
        replyTo: replyTo ? String(replyTo.message_id) : undefined,
      },
      (outcome) => answerTyped(deps, ctx, outcome, { text, chatId, answerTo }),
    );
  };
}

/** Replies under the typed message: a confirmation with Yes/No buttons, an error, or the outcome. */
async function answerTyped(
  { door, access, link }: TypedDeps,
  ctx: Context,
  outcome: Outcome,
  typed: { text: string; chatId: string; answerTo: AnswerTo },
): Promise<void> {
  const { text, chatId, answerTo } = typed;
  const { confirm } = outcome;
  // The judge audited a stranger's text.
  if (outcome.reason === "stranger") return access.refuse(ctx);
  if (outcome.kind === "needs-confirmation" && confirm) {
    // Final once recorded: it is asked about first, with buttons on this reply.
    const layout = wordsLayout(confirm.text);
    await door.withButtons(confirm.owner, chatId, layout.specs, async (tokens) => {
      // Plain text: the typed words are shown as they are, with nothing to escape.
      const sent = await ctx.reply(outcome.reply, {
        reply_markup: layout.build(tokens),
        ...answerTo,
      });
      return String(sent.message_id);
    });
    return;
  }
  if (outcome.error !== undefined) {
    await ctx.reply(replyForError(outcome.error), answerTo);
    return;
  }
  await ctx.reply(replyHtml(door, outcome, text), { parse_mode: "HTML", ...answerTo });
  // A typed no to [Confirm X] [Back]: that message shows the choices again.
  const { token, card } = outcome;
  if (outcome.relayout === "choices" && token?.messageId !== undefined && card) {
    const layout = answerLayout(card, link(token.questionId), outcome.offers, outcome.picks);
    await relayout(ctx.api, door, token, layout);
  }
}

/** Answers "what is waiting?" (the judge's `waiting` command) with the count and the open question. */
async function sayWaiting({ door, access }: TypedDeps, ctx: Context): Promise<void> {
  await door.attempt(
    { kind: "command", proof: access.proof(ctx), action: "waiting" },
    async (outcome) => {
      if (outcome.reason === "stranger") return access.refuse(ctx);
      const shown = outcome.shows;
      if (shown?.kind !== "waiting") return void (await ctx.reply(outcome.reply));
      const { count, top, presented } = shown.waiting;
      await ctx.reply(waitingHtml(count, top?.card, presented !== undefined), {
        parse_mode: "HTML",
        ...quoting(presented, ctx.chat?.id),
      });
    },
  );
}

/** The line naming the question open now (or next), for a reply that came too late. */
function openNowLine(door: Door): string {
  const { top, presented } = door.waiting();
  if (!top) return "Nothing else is waiting on you.";
  return `${presented ? "Open now" : "Next"}: <b>${escapeWithin(flat(top.card.prompt), 600)}</b>`;
}

/** The outcome as the reply under the typed message (HTML: the typed words are escaped). */
function replyHtml(door: Door, outcome: Outcome, text: string): string {
  switch (outcome.reason) {
    case "nothing-open": {
      const { count, top } = door.waiting();
      const next =
        count === 0
          ? "Nothing is waiting on you."
          : top
            ? "/next shows the next question."
            : putOffText(count);
      return `Nothing is open right now, so "${escapeWithin(flat(text), 60)}" was not recorded. ${next}`;
    }
    case "late":
      return `Not recorded: that question was already ${escapeWithin(outcome.closure?.text ?? "", 600)}.\n${openNowLine(door)}`;
    default:
      if (outcome.answer && (outcome.kind === "recorded" || outcome.kind === "replayed")) {
        return `✅ Recorded: ${escapeWithin(outcome.answer.text, 1000)}`;
      }
      return escapeWithin(outcome.reply, 1000);
  }
}

export { WAITING_QUESTION };
