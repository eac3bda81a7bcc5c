// The way an update goes through the bot, in order: handled once only, the boxholder heard,
// taps, commands (in any case), text: every tap, command and text is an attempt for the judge,
// whoever sent it (the judge refuses and audits a stranger's). Then what is no attempt: the
// boxholder's edits and non-text messages get a word, a stranger's a refusal, and a stray
// callback an answer. Only the routing: each handler is its own.

import type { Bot, Middleware } from "grammy";
import type { Door, SlotLogger } from "../../src/slot/port.ts";
import type { Access } from "./access.ts";
import { commandsInAnyCase } from "./command-case.ts";
import type { createCommands } from "./commands.ts";
import { heardFromOwner } from "./heard.ts";
import type { createTapHandler } from "./taps.ts";
import { type createTypedReplyHandler, EDITED_REPLY } from "./typed.ts";

export interface Handlers {
  door: Door;
  access: Access;
  logger: SlotLogger;
  commands: ReturnType<typeof createCommands>;
  onTap: ReturnType<typeof createTapHandler>;
  onText: ReturnType<typeof createTypedReplyHandler>;
}

/** The commands each routed to the handler of its name (each an attempt for the judge, /help aside). */
const COMMANDS = [
  "waiting",
  "next",
  "park",
  "later",
  "dismiss",
  "grants",
  "revoke",
  "help",
] as const;

const STRANGER = "a message from someone who is not the boxholder";

export function routeUpdates(bot: Bot, handlers: Handlers): void {
  const { door, access, commands, logger } = handlers;
  bot.use(onceEach(door, logger));
  bot.use(heardFromOwner(door, access));
  bot.on("callback_query:data", handlers.onTap);
  bot.use(commandsInAnyCase);
  bot.command("start", commands.start);
  for (const name of COMMANDS) bot.command(name, commands[name]);
  bot.on("message:text", async (ctx) => {
    // A command is what Telegram marks as one at the start; "/srv/exports" (a path) is text.
    const first = ctx.message.entities?.[0];
    if (first?.type !== "bot_command" || first.offset !== 0) return handlers.onText(ctx);
    if (!access.isBoxholder(ctx)) return access.refuse(ctx, STRANGER);
    await ctx.reply("I do not know that command. /help lists what I understand.");
  });
  const boxholder = bot.filter((ctx) => access.isBoxholder(ctx));
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
  bot.on("message", (ctx) => access.refuse(ctx, STRANGER));
  bot.on("edited_message", (ctx) => access.refuse(ctx, `an edit: ${STRANGER}`));
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
function onceEach(door: Door, logger: SlotLogger): Middleware {
  const inFlight = new Set<string>();
  return async (ctx, next) => {
    const key = `${ctx.me.id}:${ctx.update.update_id}`;
    if (inFlight.has(key) || door.handledBefore(key)) {
      logger.info({ update: ctx.update.update_id }, "update seen before; skipped");
      return;
    }
    inFlight.add(key);
    try {
      await next();
    } finally {
      inFlight.delete(key);
      door.handled(key);
    }
  };
}
