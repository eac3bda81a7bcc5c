// Puts a new set of buttons on a message already sent (the same presentation's): the tokens are
// minted by the judge around the edit, so an edit Telegram refuses leaves none behind. Used by
// a tap (its own message) and by typed text that acts on a message's buttons (a typed no to
// [Confirm X] [Back] brings the choices back).

import type { Api } from "grammy";
import type { ButtonToken, Door } from "../../src/slot/port.ts";
import type { Layout } from "./keyboard.ts";

/** Replaces the buttons of `token`'s message with `layout`, for the same presentation. */
export async function relayout(
  api: Api,
  door: Door,
  token: ButtonToken,
  layout: Layout,
): Promise<void> {
  const { presentationSeq, questionId, chatId } = token;
  const messageId = token.messageId as string;
  await door.withButtons({ presentationSeq, questionId }, chatId, layout.specs, async (tokens) => {
    await api.editMessageReplyMarkup(chatId, Number(messageId), {
      reply_markup: layout.build(tokens),
    });
    return messageId;
  });
}
