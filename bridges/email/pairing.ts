// Pairing an address by a code sent there and sent back. `qbridge pair --email ADDRESS` sends
// the code to ADDRESS (sendPairingCode) and the ledger keeps which address that e-mail went to;
// the service reads the reply, and only a reply to that e-mail, from that address, with the
// code on its first line pairs it. The door decides the code by the owner rules (the rate
// limit, used, expired, replacing a boxholder) and audits it; this file says the outcome in the
// reply's thread.

import { type Door, type DoorPairing, PAIRING_WINDOW_MS } from "../../src/slot/port.ts";
import { PAIRED_NOTE, pairingNote, replyNote } from "./notes.ts";
import type { Sender, Thread } from "./outgoing.ts";
import type { Reply } from "./reply.ts";

/** The bridge's own record (door.meta key) of the pairing e-mail with this Message-ID: its address. */
export const pairingKey = (messageId: string) => `pairing ${messageId}`;

const CODE = /\b([A-Z2-9]{4})-?([A-Z2-9]{4})\b/i;

const PAIRING_REPLY: Record<Exclude<DoorPairing, { ok: true }>["reason"], string> = {
  unknown: "That pairing code is not known. Run qbridge pair --email again for a new one.",
  used: "That pairing code was used already. Run qbridge pair --email again for a new one.",
  expired: "That pairing code has expired (codes last 10 minutes). Run qbridge pair --email again.",
  "owner-set":
    "This box already has a boxholder address. To move it here, run qbridge pair --email with this address and --replace on the server.",
  limit: `Too many pairing codes that did not work. Wait ${PAIRING_WINDOW_MS / 60_000} minutes, then ask for a new code.`,
  silent: "",
  already: "This address is the boxholder's already: nothing changed.",
};

/** Sends the code to `to`; resolves to the pairing e-mail's Message-ID. */
export function sendPairingCode(sender: Sender, code: string, to: string, minutes: number) {
  return sender.send(to, pairingNote(code, minutes));
}

export interface PairingDeps {
  door: Door;
  sender: Sender;
}

/** The code on a reply's first line ("" for none: the door refuses it as unknown, audited). */
function codeIn(line: string): string {
  const code = CODE.exec(line);
  return code ? `${code[1]}${code[2]}` : "";
}

/**
 * Pairs the sender when `reply` answers a pairing e-mail that went to them; true when it was
 * such a reply (handled, whatever came of it), false when it was none. The door decides the
 * code by the owner rules and audits it.
 */
export async function pairFromReply(deps: PairingDeps, reply: Reply): Promise<boolean> {
  const { door, sender } = deps;
  const sentTo = reply.answers.map((id) => door.meta.get(pairingKey(id))).find(Boolean);
  if (sentTo === undefined || reply.from === undefined || sentTo !== reply.from) return false;
  const thread: Thread | undefined = reply.messageId
    ? { inReplyTo: reply.messageId, references: [...reply.answers].reverse() }
    : undefined;
  const { pairing, after } = door.pair(codeIn(reply.firstLine), reply.from);
  const line = pairing.ok ? PAIRED_NOTE : PAIRING_REPLY[pairing.reason];
  if (line) await sender.send(reply.from, replyNote("your pairing code", line), thread);
  await after();
  return true;
}
