// The Telegram side of the slot: sends a presentation to the boxholder's private chat, turns a
// closed one into a line with no buttons, and delivers nudges. Its buttons' tokens are minted
// by the judge (withButtons) around each send.

import type { Api } from "grammy";
import {
  type Address,
  type Closure,
  type Door,
  PROMPT_SHOWN_CHARS,
  type Presentation,
  type Presenter,
  type PresentRequest,
  type QuestionView,
} from "../../src/slot/port.ts";
import { answerLayout, NO_BUTTONS, showLayout } from "./keyboard.ts";
import { toOwnerChat } from "./refusal.ts";
import { closedHtml, expiredHtml, nudgeHtml, overnightText, presentationHtml } from "./render.ts";

export const SURFACE = "telegram";

export interface PresenterDeps {
  api: Api;
  door: Door;
  /** The boxholder's private chat (its user id), when one is bound. */
  ownerChat: () => string | undefined;
  /** The signed web link of a question, when a public URL is configured. */
  link: (questionId: string) => string | undefined;
}

/**
 * Reply parameters quoting the open question's message, only when it is a message of this
 * surface in this chat (a question open in `qbridge chat` has no message here). A message the
 * boxholder deleted meanwhile does not stop the reply: it goes out unquoted.
 */
export function quoting(open: Presentation | undefined, chatId: string | number | undefined) {
  if (open?.surface !== SURFACE || open.messageId === undefined) return {};
  if (chatId === undefined || open.chatId !== String(chatId)) return {};
  return {
    reply_parameters: { message_id: Number(open.messageId), allow_sending_without_reply: true },
  };
}

export function isNotModified(error: unknown): boolean {
  return /message is not modified/i.test(String((error as Error)?.message ?? error));
}

/** The Telegram presenter: each of the slot's calls goes to the boxholder's private chat. */
export function createTelegramPresenter(deps: PresenterDeps): Presenter & {
  sendQuestion(request: PresentRequest, chatId: string): Promise<Address>;
} {
  return {
    surface: SURFACE,
    // A prompt this long is never cut (render.ts); a request beyond it is not shown here.
    shows: PROMPT_SHOWN_CHARS,
    ready: () => deps.ownerChat() !== undefined,
    sendQuestion: (request, chatId) => sendQuestion(deps, request, chatId),
    async present(request) {
      const chatId = deps.ownerChat();
      return chatId === undefined
        ? undefined
        : toOwnerChat(() => sendQuestion(deps, request, chatId));
    },
    closed: (presentation, closure) => markClosed(deps, presentation, closure),
    expired: (questions) => toOwnerChat(() => sendExpired(deps, questions)),
    nudge: (question, presented) => toOwnerChat(() => sendNudge(deps, question, presented)),
  };
}

/** Sends the question with its answer buttons, whose tokens the judge mints around the send. */
async function sendQuestion(
  { api, door, link: linkOf }: PresenterDeps,
  request: PresentRequest,
  chatId: string,
): Promise<Address> {
  const { question, seq } = request;
  const link = linkOf(question.id);
  const html = presentationHtml({
    card: question.card,
    behind: request.behind,
    link,
    now: door.now(),
    lastTime: request.lastTime,
  });
  const reusable = request.lastTime?.reusable;
  const layout = answerLayout(question.card, link, {
    same: reusable && { ...reusable, from: request.lastTime?.id ?? "" },
    extendBy: request.extendBy,
  });
  if (request.overnight) await api.sendMessage(chatId, overnightText(request.overnight));
  const owner = { presentationSeq: seq, questionId: question.id };
  const messageId = await door.withButtons(owner, chatId, layout.specs, async (tokens) => {
    // The slot decided whether this one may make a sound; Telegram's word for it is this flag.
    const sent = await api.sendMessage(chatId, html, {
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
      reply_markup: layout.build(tokens),
      ...(request.silent ? { disable_notification: true } : {}),
    });
    return String(sent.message_id);
  });
  return { chatId, messageId };
}

/** Turns a closed presentation's message into a line with no buttons; unchanged is fine. */
async function markClosed(
  { api, ownerChat }: PresenterDeps,
  presentation: Presentation,
  closure: Closure,
): Promise<void> {
  const { chatId, messageId } = presentation;
  if (chatId === undefined || messageId === undefined) return;
  const prompt = closure.card?.prompt ?? presentation.questionId;
  const edit = () =>
    api.editMessageText(chatId, Number(messageId), closedHtml(prompt, closure), {
      parse_mode: "HTML",
      reply_markup: NO_BUTTONS,
    });
  try {
    // Only the boxholder's own chat refusing holds the surface off (not a former owner's).
    await (chatId === ownerChat() ? toOwnerChat(edit) : edit());
  } catch (error) {
    if (!isNotModified(error)) throw error;
  }
}

/** Lists the questions that expired unanswered; false when no chat is bound. */
async function sendExpired(
  { api, ownerChat, link }: PresenterDeps,
  questions: readonly QuestionView[],
): Promise<boolean> {
  const chatId = ownerChat();
  if (chatId === undefined) return false;
  const lines = questions.map((q) => ({
    id: q.id,
    prompt: q.card.prompt,
    link: link(q.id),
  }));
  await api.sendMessage(chatId, expiredHtml(lines), {
    parse_mode: "HTML",
    link_preview_options: { is_disabled: true },
  });
  return true;
}

/** Nudges a waiting question: quoting its message here, else with a button that shows it. */
async function sendNudge(
  { api, door, ownerChat }: PresenterDeps,
  question: QuestionView,
  presented: Presentation | undefined,
): Promise<boolean> {
  const chatId = ownerChat();
  if (chatId === undefined) return false;
  const asked = new Date(question.card["asked-at"]).getTime();
  const days = Math.floor((door.now().getTime() - asked) / 86_400_000);
  if (presented?.messageId !== undefined && presented.chatId === chatId) {
    await api.sendMessage(chatId, nudgeHtml(question.card, days, true), {
      parse_mode: "HTML",
      reply_parameters: {
        message_id: Number(presented.messageId),
        allow_sending_without_reply: true,
      },
    });
    return true;
  }
  const layout = showLayout();
  await door.withButtons({ questionId: question.id }, chatId, layout.specs, async (tokens) => {
    const sent = await api.sendMessage(chatId, nudgeHtml(question.card, days, false), {
      parse_mode: "HTML",
      reply_markup: layout.build(tokens),
    });
    return String(sent.message_id);
  });
  return true;
}
