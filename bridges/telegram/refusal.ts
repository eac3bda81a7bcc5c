// Telegram's answers that mean the boxholder's chat takes no messages and will not by itself:
// 403 (the bot blocked, the account deleted, never started) and 400 "chat not found". The slot
// holds such a chat off (src/slot/reach.ts) instead of trying it at every tick, until the
// boxholder writes again (heard.ts); any other failure (Telegram down, a bad request) stays
// what it was.

import { GrammyError } from "grammy";
import { ChatRefuses } from "../../src/slot/port.ts";

/** The ChatRefuses `error` means, when it is such a refusal. */
export function refusalOf(error: unknown): ChatRefuses | undefined {
  if (!(error instanceof GrammyError)) return undefined;
  const gone = error.error_code === 400 && /chat not found/i.test(error.description);
  return error.error_code === 403 || gone ? new ChatRefuses(error.description) : undefined;
}

/** Runs `send` to the boxholder's chat; a refusal of that chat is thrown as ChatRefuses. */
export async function toOwnerChat<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    throw refusalOf(error) ?? error;
  }
}
