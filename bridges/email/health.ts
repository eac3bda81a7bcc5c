// The doctor's look at the e-mail bridge's two servers: can the mailbox be opened with these
// settings (IMAP login and STATUS of the mailbox), and does the outgoing server take a login
// (SMTP, nodemailer's verify)? Read-only: it reads no message, marks none, sends nothing.

import { ImapFlow } from "imapflow";
import type { DoctorCheck, Finding } from "../../src/slot/port.ts";
import { createSender } from "./outgoing.ts";
import type { ImapServer, MailServer } from "./settings.ts";

export interface EmailCheckSettings {
  imap: ImapServer;
  smtp: MailServer;
  from: string;
  fromAddress: string;
}

/** The server's words, with no password in them. */
function said(error: unknown, secrets: (string | undefined)[]): string {
  let text = String((error as Error)?.message ?? error);
  for (const secret of secrets) if (secret) text = text.split(secret).join("[password]");
  const response = (error as { responseText?: string }).responseText;
  return response && !text.includes(response) ? `${text}: ${response}` : text;
}

function finding(path: string, problem: string, fix: string): Finding {
  return { kind: "email", path, problem, fix, repairable: false };
}

async function examineImap(imap: ImapServer): Promise<Finding | string> {
  const client = new ImapFlow({
    host: imap.host,
    port: imap.port,
    secure: imap.secure,
    ...(imap.user ? { auth: { user: imap.user, pass: imap.password ?? "" } } : {}),
    logger: false,
  });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const status = await client.status(imap.mailbox, { messages: true });
    await client.logout();
    return `email: mailbox ${imap.mailbox} on ${imap.host}:${imap.port} (${status ? status.messages : "?"} messages)`;
  } catch (error) {
    client.close();
    return finding(
      "QBRIDGE_EMAIL_IMAP_URL",
      `the mailbox ${imap.mailbox} on ${imap.host}:${imap.port} cannot be opened (${said(error, [imap.password])})`,
      "check the host, port, user, password and mailbox in QBRIDGE_EMAIL_IMAP_URL (and imap:// or imaps://); qbridge serve keeps retrying with backoff",
    );
  }
}

async function examineSmtp(settings: EmailCheckSettings): Promise<Finding | string> {
  const { smtp } = settings;
  const sender = createSender(settings);
  try {
    await sender.verify();
    return `email: outgoing server ${smtp.host}:${smtp.port} takes the login`;
  } catch (error) {
    return finding(
      "QBRIDGE_EMAIL_SMTP_URL",
      `the outgoing server ${smtp.host}:${smtp.port} refuses or cannot be reached (${said(error, [smtp.password])})`,
      "check the host, port, user and password in QBRIDGE_EMAIL_SMTP_URL (smtp:// for STARTTLS or none, smtps:// for TLS from the start)",
    );
  } finally {
    sender.close();
  }
}

/** The doctor's e-mail check: the mailbox, then the outgoing server, each failure one finding. */
export function createEmailCheck(settings: EmailCheckSettings): DoctorCheck {
  return {
    label: "email",
    async examine() {
      const found = await Promise.all([examineImap(settings.imap), examineSmtp(settings)]);
      return {
        findings: found.filter((f): f is Finding => typeof f !== "string"),
        facts: found.filter((f): f is string => typeof f === "string"),
      };
    },
  };
}
