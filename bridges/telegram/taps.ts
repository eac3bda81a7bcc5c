// A tap on a button, translated and rendered. The judge (src/slot/judge/) checks it, who
// tapped included, records it and audits it; here only: the callback becomes a button attempt
// with what it shows of the sender, and the outcome becomes the callback's answer (always, and
// after the record) and the edit of the tapped message's buttons. The slot moves on after both.

import type { Api, Context } from "grammy";
import {
  type ButtonToken,
  type Door,
  ELSEWHERE_REPLY,
  type Outcome,
  type TriageView,
  UNKNOWN_REPLY,
} from "../../src/slot/port.ts";
import type { Access } from "./access.ts";
import { cutWithin } from "./html.ts";
import { answerLayout, confirmLayout, laterLayout, NO_BUTTONS } from "./keyboard.ts";
import { MAX_CALLBACK_ANSWER_CHARS } from "./limits.ts";
import { isNotModified } from "./presenter.ts";
import { relayout } from "./relayout.ts";
import { replyForError } from "./replies.ts";
import { offerLayout } from "./triage-keyboard.ts";
import { offerHtml, offerResultHtml } from "./triage-render.ts";

export interface TapDeps {
  api: Api;
  door: Door;
  access: Access;
  link: (questionId: string) => string | undefined;
  /** Told the moment the callback is acknowledged (for the latency bench). */
  onAcknowledged?: (callbackId: string) => void;
}

export const TAP_REPLIES = {
  unknown: UNKNOWN_REPLY,
  elsewhere: ELSEWHERE_REPLY,
};

/** Turns each callback into a button attempt and renders the judge's outcome. */
export function createTapHandler(deps: TapDeps) {
  const { door, access } = deps;
  return async function handleTap(ctx: Context): Promise<void> {
    const query = ctx.callbackQuery;
    if (!query) return;
    const message = query.message;
    await door.attempt(
      {
        kind: "button",
        proof: access.proof(ctx),
        token: query.data ?? "",
        where: message
          ? { chatId: String(message.chat.id), messageId: String(message.message_id) }
          : undefined,
      },
      (outcome) => answerTap(deps, ctx, outcome),
    );
  };
}

/** Refuses a stranger, or answers the callback first and then redraws the tapped message. */
async function answerTap(deps: TapDeps, ctx: Context, outcome: Outcome): Promise<void> {
  if (outcome.reason === "stranger") {
    // The judge audited the tap.
    await deps.access.refuse(ctx);
    return;
  }
  const reply =
    outcome.reason === "error" && outcome.error !== undefined
      ? replyForError(outcome.error)
      : outcome.reply;
  await acknowledge(deps, ctx, reply);
  await redraw(deps, outcome);
}

/** Answers the callback (cut to Telegram's limit) and tells the bench it was answered. */
async function acknowledge(deps: TapDeps, ctx: Context, text: string): Promise<void> {
  await ctx.answerCallbackQuery({ text: cutWithin(text, MAX_CALLBACK_ANSWER_CHARS) });
  deps.onAcknowledged?.(ctx.callbackQuery?.id ?? "");
}

/** Removes the tapped message's buttons; a message already without them is fine. */
async function dropButtons(api: Api, token: ButtonToken): Promise<void> {
  if (token.messageId === undefined) return;
  try {
    await api.editMessageReplyMarkup(token.chatId, Number(token.messageId), {
      reply_markup: NO_BUTTONS,
    });
  } catch (error) {
    if (!isNotModified(error)) throw error;
  }
}

/** The digest's message becomes the list the next tap records, then what it recorded. */
async function showTriage(
  { api, door }: TapDeps,
  token: ButtonToken,
  view: TriageView | undefined,
): Promise<void> {
  if (!view || token.messageId === undefined) return;
  const { chatId } = token;
  const messageId = token.messageId;
  if (view.step === "result") {
    await api.editMessageText(
      chatId,
      Number(messageId),
      offerResultHtml(view.result, view.replayed),
      {
        parse_mode: "HTML",
        reply_markup: NO_BUTTONS,
      },
    );
    return;
  }
  const layout = offerLayout(view.offerId, view.items.length);
  const owner = { questionId: token.questionId };
  await door.withButtons(owner, chatId, layout.specs, async (tokens) => {
    await api.editMessageText(chatId, Number(messageId), offerHtml(view.items), {
      parse_mode: "HTML",
      reply_markup: layout.build(tokens),
    });
    return messageId;
  });
}

/** What the tapped message's buttons become once the callback is answered. */
async function redraw(deps: TapDeps, outcome: Outcome): Promise<void> {
  const { api, door } = deps;
  const { token } = outcome;
  if (!token) return;
  switch (outcome.relayout) {
    case "drop":
      return dropButtons(api, token);
    case "confirm": {
      // A Send names the picks it confirms; a tapped option, itself.
      const pick = outcome.pick ?? { optionId: token.optionId ?? "", label: token.label ?? "" };
      return relayout(api, door, token, confirmLayout(pick.optionId, pick.label));
    }
    case "later":
      return relayout(api, door, token, laterLayout(outcome.later ?? []));
    case "choices":
      if (outcome.card) {
        const layout = answerLayout(
          outcome.card,
          deps.link(token.questionId),
          outcome.offers,
          outcome.picks,
        );
        return relayout(api, door, token, layout);
      }
      return;
    case "triage":
      return showTriage(deps, token, outcome.triage);
    case undefined:
      return;
  }
}
