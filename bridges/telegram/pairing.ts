// /start CODE: the Telegram side of pairing. The door decides and audits (the slot's owner
// rules: the rate limit, the code, whether it may replace the bound boxholder); this file says
// the outcome in the sender's chat, tells a replaced boxholder in theirs, and lets the door move
// the open question along.

import type { Context } from "grammy";
import { type Door, type DoorPairing, PAIRING_WINDOW_MS } from "../../src/slot/port.ts";

const WAIT_MINUTES = PAIRING_WINDOW_MS / 60_000;

export const PAIRED =
  "Paired: you are the boxholder now. Questions will appear here one at a time.";

/** The boxholder's own /start CODE again (tapped twice, or an old code): nothing to pair. */
export const ALREADY_PAIRED =
  "You are the boxholder of this bot already; no code is needed. Questions appear here one at a time; /waiting shows what waits.";

export const PAIRING_REPLY: Record<Exclude<DoorPairing, { ok: true }>["reason"], string> = {
  already: ALREADY_PAIRED,
  unknown: "That pairing code is not known. Run qbridge pair on the server for a new one.",
  used: "That pairing code was used already. Run qbridge pair on the server for a new one.",
  expired: "That pairing code has expired (codes last 10 minutes). Run qbridge pair again.",
  "owner-set":
    "This bot already has a boxholder. To move it to you, run qbridge pair --replace on the server and send that code.",
  limit: `Too many pairing codes that did not work. Wait ${WAIT_MINUTES} minutes, then send a new code from qbridge pair; until then this bot does not answer you.`,
  silent: "",
};

export const replacedNotice = (newUser: string) =>
  `You are no longer the boxholder of this bot: it was paired with another Telegram account (user ${newUser}) with a code from qbridge pair --replace. Nothing you answered is changed. If this was not meant to happen, run qbridge pair --replace on the server and send the code from here.`;

export async function pairWithCode(
  ctx: Context,
  code: string,
  deps: { door: Door; logger?: { warn(obj: object, msg?: string): void } },
): Promise<void> {
  const userId = String(ctx.from?.id);
  const { pairing, after } = deps.door.pair(code, userId);
  if (!pairing.ok) {
    if (pairing.reason !== "silent") await ctx.reply(PAIRING_REPLY[pairing.reason]);
    return;
  }
  await ctx.reply(PAIRED);
  if (pairing.replaced) {
    try {
      await ctx.api.sendMessage(pairing.replaced.userId, replacedNotice(userId));
    } catch (error) {
      // They may have blocked the bot; the audit row keeps what happened.
      deps.logger?.warn({ err: error }, "could not tell the replaced boxholder");
    }
  }
  await after();
}
