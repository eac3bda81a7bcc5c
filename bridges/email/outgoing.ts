// Sending: every e-mail the bridge writes leaves through the SMTP server of the settings, by
// nodemailer, with a Message-ID of our own making (message-id.ts) so a reply can be tied to it,
// and `Auto-Submitted: auto-generated` so out-of-office responders stay silent. Never logs a
// password: a failure is reported with the server's words, the settings' URL never.

import { createTransport, type Transporter } from "nodemailer";
import { newMessageId } from "./message-id.ts";
import type { MailServer } from "./settings.ts";

/** What an e-mail of the bridge carries: a subject, text, and an HTML part when it has one. */
export interface Outgoing {
  subject: string;
  text: string;
  html?: string | undefined;
}

/** The e-mail a new one answers: its Message-ID and the thread's References before it. */
export interface Thread {
  inReplyTo: string;
  references: string[];
}

export interface Sender {
  /** Sends to `to`; resolves to the Message-ID the e-mail went out with. */
  send(to: string, mail: Outgoing, thread?: Thread): Promise<string>;
  /** Connects and logs in without sending (the doctor's check). */
  verify(): Promise<void>;
  close(): void;
}

export function createSender(settings: {
  smtp: MailServer;
  from: string;
  fromAddress: string;
}): Sender {
  const { smtp } = settings;
  const transport: Transporter = createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? "" } } : {}),
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    // Our content is text we wrote: no file or URL is ever read into a message.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(to, mail, thread) {
      const messageId = newMessageId(settings.fromAddress);
      await transport.sendMail({
        from: settings.from,
        to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        messageId,
        headers: { "Auto-Submitted": "auto-generated" },
        ...(thread
          ? { inReplyTo: thread.inReplyTo, references: [...thread.references, thread.inReplyTo] }
          : {}),
      });
      return messageId;
    },
    async verify() {
      await transport.verify();
    },
    close: () => transport.close(),
  };
}
