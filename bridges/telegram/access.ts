// What an update shows of its sender (a proof for the judge: their account, the chat, whether
// it is private), and the words of a refusal. The judge decides who the boxholder is (the paired
// account, or TELEGRAM_OWNER_ID, in a private chat) and audits every attempt it refuses; here a
// stranger or a group chat only gets one polite refusal per chat, and an update that is no
// attempt (a picture, an edit) is audited as refused.

import type { Context } from "grammy";
import type { Door, Proof } from "../../src/slot/port.ts";

export interface Access {
  /** What the update shows of its sender, for the judge. */
  proof(ctx: Context): Proof;
  /** The judge takes the sender for the boxholder: for updates that are no attempt. */
  isBoxholder(ctx: Context): boolean;
  /** The boxholder's Telegram user id (also their private chat id), when known. */
  ownerId(): string | undefined;
  /**
   * Answers a stranger once per chat (a callback always). `why`: an update that is no attempt,
   * audited here; without it the judge audited the attempt already.
   */
  refuse(ctx: Context, why?: string): Promise<void>;
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

/** What an update shows of its sender: their account, the chat, whether it is private. */
export function proofOf(ctx: Context): Proof {
  return {
    kind: "account",
    userId: ctx.from ? String(ctx.from.id) : undefined,
    chatId: ctx.chat ? String(ctx.chat.id) : undefined,
    privateChat: ctx.chat?.type === "private",
  };
}

export function createAccess(deps: { door: Door; configuredOwner: string | undefined }): Access {
  const { door } = deps;
  return {
    proof: proofOf,
    isBoxholder: (ctx) => door.trust(proofOf(ctx)) === "boxholder",
    ownerId: () => door.owner(),
    async refuse(ctx, why) {
      const chatId = String(ctx.chat?.id ?? ctx.from?.id ?? "unknown");
      const tap = ctx.callbackQuery !== undefined;
      const once = !tap && ctx.chat !== undefined;
      const first =
        why === undefined
          ? once && door.refuseOnce(chatId)
          : door.refuseStranger({
              chatId,
              once,
              actor: ctx.from ? String(ctx.from.id) : undefined,
              action: tap ? "tap" : "message",
              verbatim: (ctx.message ?? ctx.editedMessage)?.text?.slice(0, 500),
              detail: `${why} (chat ${chatId}, ${ctx.chat?.type ?? "no chat"})`,
            });
      const text =
        ctx.chat && ctx.chat.type !== "private"
          ? GROUP_REFUSAL
          : deps.configuredOwner !== undefined && ctx.from
            ? ownerIdRefusal(String(ctx.from.id))
            : REFUSAL;
      if (tap) {
        await ctx.answerCallbackQuery({ text: text.slice(0, 200) });
        return;
      }
      if (first) await ctx.reply(text);
    },
  };
}
