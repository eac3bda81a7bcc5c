// /start CODE: the Telegram side of pairing. The slot's owner rules decide (the rate limit,
// the code, whether it may replace the bound boxholder); this file says the outcome in the
// sender's chat, tells a replaced boxholder in theirs, and moves the open question along.

import type { Context } from "grammy";
import { PAIRING_WINDOW_MS, type Pairing, type Slot } from "../../src/slot/port.ts";
import { SURFACE } from "./presenter.ts";

const WAIT_MINUTES = PAIRING_WINDOW_MS / 60_000;

export const PAIRING_REPLY: Record<Exclude<Pairing, { ok: true }>["reason"], string> = {
  unknown: "That pairing code is not known. Run qbridge pair on the server for a new one.",
  used: "That pairing code was used already. Run qbridge pair on the server for a new one.",
  expired: "That pairing code has expired (codes last 10 minutes). Run qbridge pair again.",
  "owner-set":
    "This bot already has a boxholder. To move it to you, run qbridge pair --replace on the server and send that code.",
  limit: `Too many pairing codes that did not work. Wait ${WAIT_MINUTES} minutes, then send a new code from qbridge pair; until then this bot does not answer you.`,
  silent: "",
};

export const PAIRED =
  "Paired: you are the boxholder now. Questions will appear here one at a time.";

/** The boxholder's own /start CODE again (tapped twice, or an old code): nothing to pair. */
export const ALREADY_PAIRED =
  "You are the boxholder of this bot already; no code is needed. Questions appear here one at a time; /waiting shows what waits.";

export const replacedNotice = (newUser: string) =>
  `You are no longer the boxholder of this bot: it was paired with another Telegram account (user ${newUser}) with a code from qbridge pair --replace. Nothing you answered is changed. If this was not meant to happen, run qbridge pair --replace on the server and send the code from here.`;

export async function pairWithCode(
  ctx: Context,
  code: string,
  deps: { slot: Slot; logger?: { warn(obj: object, msg?: string): void } },
): Promise<void> {
  const { slot } = deps;
  const userId = String(ctx.from?.id);
  if (slot.owners.get(SURFACE)?.userId === userId) {
    await ctx.reply(ALREADY_PAIRED);
    return;
  }
  const pairing = slot.owners.pair(SURFACE, code, userId, slot.core.box.clock.now());
  slot.core.ledger.audit({
    at: slot.core.box.clock.iso(),
    surface: SURFACE,
    actor: userId,
    action: "pair",
    outcome: pairing.ok ? "applied" : `refused:${pairing.reason}`,
    ...(pairing.ok && pairing.replaced
      ? { detail: `replaced telegram user ${pairing.replaced.userId}` }
      : {}),
  });
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
  // A question open in the replaced boxholder's chat is shown again in the new one's.
  const open = slot.current();
  if (open && open.surface === SURFACE && open.chatId !== undefined && open.chatId !== userId) {
    await slot.show(open.questionId, { again: true });
  } else {
    await slot.fill();
  }
}
