// The boxholder's word as the sign their chat takes messages again: unblocking a bot sends it
// no update of its own, but whatever the boxholder writes next does. Never answers anything.

import type { Middleware } from "grammy";
import type { Door } from "../../src/slot/port.ts";
import type { Access } from "./access.ts";

/**
 * Middleware: an update from the boxholder tells the slot their chat takes messages again (an
 * unblocked bot gets no update of its own; what they write next is the sign). A chat held off
 * as refusing is tried at once, once this update is handled (its reply goes first).
 */
export function heardFromOwner(door: Door, access: Access): Middleware {
  return async (ctx, next) => {
    const back = door.heard(access.proof(ctx));
    await next();
    if (back) await door.fill();
  };
}
