// A message read from the mailbox, as the bridge needs it: who sent it, which of our e-mails
// it replies to, what the receiving server said of the sender, and the reply's first line with
// the quoted text and the signature stripped (email-reply-parser), which is read exactly as a
// typed reply on Telegram. MIME is mailparser's; nothing here decodes a message by hand.

import EmailReplyParser from "email-reply-parser";
import { type ParsedMail, simpleParser } from "mailparser";
import { authenticationFailure } from "./auth-results.ts";
import { messageIdsIn } from "./message-id.ts";

export interface Reply {
  /** Its own Message-ID: a message delivered twice is read once. */
  messageId: string | undefined;
  /** The sender's address (From), lower case; undefined when it names none. */
  from: string | undefined;
  /** The e-mails it answers, nearest first: In-Reply-To, then References from the newest. */
  answers: string[];
  /** Why the receiving server failed the sender's domain (dmarc=fail), when it did. */
  authFailed: string | undefined;
  /** Sent by a machine (an out-of-office notice, a bounce): never answered, never read as words. */
  automatic: boolean;
  /** The first line of what the person wrote, quotes and signature stripped ("" when none). */
  firstLine: string;
  /** What the person wrote, quotes and signature stripped (for the audit, shortened there). */
  words: string;
}

function unfolded(line: string): string {
  return line
    .replace(/^[^:]*:\s*/, "")
    .replace(/\r?\n[ \t]+/g, " ")
    .trim();
}

function headersNamed(mail: ParsedMail, name: string): string[] {
  return mail.headerLines.filter((h) => h.key === name).map((h) => unfolded(h.line));
}

function isAutomatic(mail: ParsedMail): boolean {
  const submitted = headersNamed(mail, "auto-submitted")[0]?.toLowerCase();
  if (submitted !== undefined && submitted !== "no") return true;
  const precedence = headersNamed(mail, "precedence")[0]?.toLowerCase() ?? "";
  if (/^(bulk|junk|list|auto_reply)$/.test(precedence)) return true;
  return mail.from === undefined || /^mailer-daemon@/i.test(mail.from.value[0]?.address ?? "");
}

/** The reply's own words: the text part (or the HTML's text), quotes and signature stripped. */
function wordsOf(mail: ParsedMail): string {
  const text = mail.text ?? "";
  return new EmailReplyParser().parseReply(text.replace(/\r\n/g, "\n")).trim();
}

export async function readReply(raw: Buffer | string): Promise<Reply> {
  const mail = await simpleParser(raw, { skipImageLinks: true });
  const from = mail.from?.value[0]?.address?.toLowerCase();
  const references = messageIdsIn(mail.references).reverse();
  const inReplyTo = messageIdsIn(mail.inReplyTo);
  const words = wordsOf(mail);
  return {
    messageId: mail.messageId,
    from: from || undefined,
    answers: [...new Set([...inReplyTo, ...references])],
    authFailed: authenticationFailure(headersNamed(mail, "authentication-results")),
    automatic: isAutomatic(mail),
    firstLine: (words.split("\n").find((line) => line.trim() !== "") ?? "").trim(),
    words,
  };
}
