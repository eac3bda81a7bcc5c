// Commands in any case: a phone's keyboard capitalises the first letter of a message, so
// "/Waiting" is what the boxholder often sends for /waiting. grammY matches commands exactly;
// this lower-cases the command at the start of a message (never its argument, such as a
// pairing code) before the handlers look at it.

import type { Context, NextFunction } from "grammy";

export function commandsInAnyCase(ctx: Context, next: NextFunction): Promise<void> {
  const message = ctx.message;
  const first = message?.entities?.[0];
  if (message?.text && first?.type === "bot_command" && first.offset === 0) {
    const command = message.text.slice(0, first.length);
    const at = command.indexOf("@");
    const name = at < 0 ? command : command.slice(0, at);
    message.text = name.toLowerCase() + message.text.slice(name.length);
  }
  return next();
}
