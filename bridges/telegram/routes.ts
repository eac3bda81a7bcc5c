// The way an update goes through the bot, in order: handled once only, the boxholder heard,
// taps, commands (in any case), then the boxholder's commands, text and edits; a stranger's
// message is refused and a stray callback answered. Only the routing: each handler is its own.

import type { Bot, Middleware } from "grammy";
import type { Judge, Slot, SlotLogger } from "../../src/slot/port.ts";
import type { Access } from "./access.ts";
import { commandsInAnyCase } from "./command-case.ts";
import type { createCommands } from "./commands.ts";
import { heardFromOwner } from "./heard.ts";
import type { createTapHandler } from "./taps.ts";
import { type createTypedReplyHandler, EDITED_REPLY } from "./typed.ts";

export interface Handlers {
  slot: Slot;
  judge: Judge;
  access: Access;
  logger: SlotLogger;
  commands: ReturnType<typeof createCommands>;
  onTap: ReturnType<typeof createTapHandler>;
  onText: ReturnType<typeof createTypedReplyHandler>;
}

/** The boxholder's commands, each routed to the handler of its name. */
const BOXHOLDER_COMMANDS = [
  "waiting",
  "next",
  "park",
  "later",
  "dismiss",
  "grants",
  "revoke",
  "help",
] as const;

export function routeUpdates(bot: Bot, handlers: Handlers): void {
  const { slot, access, commands, logger } = handlers;
  bot.use(onceEach(handlers.judge, logger));
  bot.use(heardFromOwner(slot, access));
  bot.on("callback_query:data", handlers.onTap);
  bot.use(commandsInAnyCase);
  bot.command("start", commands.start);
  const boxholder = bot.filter((ctx) => access.isBoxholder(ctx));
  for (const name of BOXHOLDER_COMMANDS) boxholder.command(name, commands[name]);
  boxholder.on("message:text", async (ctx) => {
    if (ctx.message.text.startsWith("/")) {
      await ctx.reply("I do not know that command. /help lists what I understand.");
      return;
    }
    await handlers.onText(ctx);
  });
  // An edit is not a second answer; without a word the boxholder would take the edit as read.
  boxholder.on("edited_message", (ctx) =>
    ctx.reply(EDITED_REPLY, {
      reply_parameters: {
        message_id: ctx.editedMessage.message_id,
        allow_sending_without_reply: true,
      },
    }),
  );
  boxholder.on("message", (ctx) =>
    ctx.reply("I understand text only: a letter, a label, yes/no or your answer in words."),
  );
  bot.on("message", (ctx) => access.refuse(ctx, "a message from someone who is not the boxholder"));
  bot.on("callback_query", (ctx) => ctx.answerCallbackQuery());
  bot.catch((error) => {
    logger.error(
      { err: error.error, update: error.ctx.update.update_id },
      "handling an update failed",
    );
  });
}

/**
 * An update is marked processed when its handling has ended, never before: a process killed
 * midway gets it again after a restart (Telegram redelivers what the offset did not confirm)
 * and handles it again, which every handler can (a recorded callback replays, a card that is
 * no longer pending refuses). An update handled to the end, or in flight here, is skipped.
 */
function onceEach(judge: Judge, logger: SlotLogger): Middleware {
  const inFlight = new Set<string>();
  return async (ctx, next) => {
    const key = `${ctx.me.id}:${ctx.update.update_id}`;
    if (inFlight.has(key) || judge.handledBefore(key)) {
      logger.info({ update: ctx.update.update_id }, "update seen before; skipped");
      return;
    }
    inFlight.add(key);
    try {
      await next();
    } finally {
      inFlight.delete(key);
      judge.handled(key);
    }
  };
}
