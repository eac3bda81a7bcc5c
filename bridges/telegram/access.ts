// Who may use the bot: the boxholder, in a private chat. The boxholder is TELEGRAM_OWNER_ID when
// set, else the Telegram user bound with a pairing code. Everybody else, and every group chat,
// gets one polite refusal per chat and nothing else; every attempt is audited.

import type { Context } from "grammy";
import type { Judge, Slot } from "../../src/slot/port.ts";
import { SURFACE } from "./presenter.ts";

export interface Access {
  /** The boxholder's Telegram user id (also their private chat id), when known. */
  ownerId(): string | undefined;
  isBoxholder(ctx: Context): boolean;
  /** Audits the refusal; replies once per chat (callbacks are always answered). */
  refuse(ctx: Context, why: string): Promise<void>;
}

export const REFUSAL =
  "Sorry, this bot answers only its owner's questions. If that is you, run qbridge pair on the server and send /start with the code.";
export const GROUP_REFUSAL = "Sorry, this bot works only in a private chat with its owner.";

/**
 * The refusal when TELEGRAM_OWNER_ID names the boxholder: pairing codes are not used then, so
 * an owner whose id was set wrong is told the one setting that helps, with their own id.
 */
export const ownerIdRefusal = (senderId: string) =>
  `Sorry, this bot answers only its owner's questions. If that is you, set TELEGRAM_OWNER_ID=${senderId} (your Telegram user id) where qbridge serve runs, and restart it.`;

export function createAccess(deps: {
  slot: Slot;
  judge: Judge;
  configuredOwner: string | undefined;
}): Access {
  const { slot, judge } = deps;
  const ownerId = () => deps.configuredOwner ?? slot.owners.get(SURFACE)?.userId;
  return {
    ownerId,
    isBoxholder(ctx) {
      const owner = ownerId();
      return (
        owner !== undefined &&
        ctx.chat?.type === "private" &&
        ctx.from !== undefined &&
        String(ctx.from.id) === owner
      );
    },
    async refuse(ctx, why) {
      const chatId = String(ctx.chat?.id ?? ctx.from?.id ?? "unknown");
      const first = judge.refuseStranger({
        surface: SURFACE,
        chatId,
        once: ctx.callbackQuery === undefined && ctx.chat !== undefined,
        actor: ctx.from ? String(ctx.from.id) : undefined,
        action: ctx.callbackQuery ? "tap" : "message",
        verbatim: ctx.message?.text?.slice(0, 500),
        detail: `${why} (chat ${chatId}, ${ctx.chat?.type ?? "no chat"})`,
      });
      const text =
        ctx.chat && ctx.chat.type !== "private"
          ? GROUP_REFUSAL
          : deps.configuredOwner !== undefined && ctx.from
            ? ownerIdRefusal(String(ctx.from.id))
            : REFUSAL;
      if (ctx.callbackQuery) {
        await ctx.answerCallbackQuery({ text: text.slice(0, 200) });
        return;
      }
      if (first) await ctx.reply(text);
    },
  };
}
