// The ties between e-mails: every e-mail the bridge sends gets a Message-ID nobody can guess
// (96 random bits), and a reply names what it answers in In-Reply-To and References. The ledger
// keeps the Message-ID as the presentation's message, so a reply is tied to the e-mail that
// showed the question, never to a subject line or a guess.

import { randomBytes } from "node:crypto";

/** A new Message-ID under the sender's domain: <random@domain>. */
export function newMessageId(fromAddress: string): string {
  const domain = fromAddress.split("@")[1] ?? "localhost";
  return `<${randomBytes(12).toString("base64url")}.qbridge@${domain}>`;
}

/** The Message-IDs in a header's text (In-Reply-To, References), in order, angle brackets kept. */
export function messageIdsIn(text: string | string[] | undefined): string[] {
  const all = Array.isArray(text) ? text.join(" ") : (text ?? "");
  return [...all.matchAll(/<[^<>\s]+>/g)].map((m) => m[0]);
}
