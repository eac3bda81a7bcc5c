// The e-mail bridge's settings (QBRIDGE_EMAIL_*), validated with its own zod schema when the
// config is read: the mailbox replies arrive in (IMAP), the server mail leaves through (SMTP),
// the sender's address, and when e-mail carries a question Telegram left untapped. Every problem
// is one sentence naming its variable, never its value: a URL may carry a password.

import { readFileSync } from "node:fs";
import { z } from "zod";
import { checked, parseDuration } from "../../src/config.ts";

/** A mail server as a URL gives it: TLS from the first byte (imaps, smtps) or not. */
export interface MailServer {
  secure: boolean;
  host: string;
  port: number;
  user: string | undefined;
  password: string | undefined;
}

export interface ImapServer extends MailServer {
  /** The mailbox replies arrive in (the URL's path; INBOX when none). */
  mailbox: string;
}

/** The time of day the digest of what waits is sent (QBRIDGE_EMAIL_DIGEST_AT), box time zone. */
export interface DigestTime {
  hour: number;
  minute: number;
}

/** Off, or every setting the bridge needs. */
export type EmailSettings =
  | { on: false; secondAfterMs: number }
  | {
      on: true;
      imap: ImapServer;
      smtp: MailServer;
      /** QBRIDGE_EMAIL_FROM as given: "question-bridge <q@example.org>" or a bare address. */
      from: string;
      /** Its address alone, lower case: the domain of every Message-ID. */
      fromAddress: string;
      /** How long a question may wait untapped on the first channel before e-mail carries it too. */
      secondAfterMs: number;
      /** When the daily digest of what waits is sent; undefined: no digest (the default). */
      digestAt: DigestTime | undefined;
    };

const DEFAULT_PORTS: Record<string, number> = { imap: 143, imaps: 993, smtp: 587, smtps: 465 };
const ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$|^[^\s@<>]+@localhost$/;

/** The address of "Name <addr>" or of a bare address, lower case; undefined when neither. */
export function addressOf(text: string): string | undefined {
  const bracketed = /<([^<>]+)>\s*$/.exec(text);
  const address = (bracketed?.[1] ?? text).trim();
  return ADDRESS.test(address) ? address.toLowerCase() : undefined;
}

/** A server URL of the given schemes, or the sentence saying what is wrong with it. */
export function serverOf(text: string, schemes: [string, string]): ImapServer | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "is not a URL";
  }
  const scheme = url.protocol.replace(/:$/, "");
  if (!schemes.includes(scheme)) return `must start with ${schemes[0]}:// or ${schemes[1]}://`;
  if (!url.hostname) return "names no host";
  const port = url.port ? Number(url.port) : (DEFAULT_PORTS[scheme] as number);
  const decode = (v: string) => (v === "" ? undefined : decodeURIComponent(v));
  return {
    secure: scheme === schemes[1],
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port,
    user: decode(url.username),
    password: decode(url.password),
    mailbox: decode(url.pathname.replace(/^\/+/, "")) ?? "INBOX",
  };
}

/** The password in a file (its first line), or why it cannot be read. */
function passwordIn(path: string): { password: string } | { problem: string } {
  try {
    const password = readFileSync(path, "utf8").split(/\r?\n/)[0] ?? "";
    return password ? { password } : { problem: "is empty" };
  } catch (error) {
    return { problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  }
}

const SECOND_AFTER_DEFAULT_MS = 30 * 60_000;

const text = checked(() => true, "");

// Every field is read as text first and judged in the transform, so each problem is reported
// together with every other (a refinement that fails would stop the transform from running).
const raw = z.object({
  QBRIDGE_EMAIL_IMAP_URL: text,
  QBRIDGE_EMAIL_SMTP_URL: text,
  QBRIDGE_EMAIL_IMAP_PASSWORD_FILE: text,
  QBRIDGE_EMAIL_SMTP_PASSWORD_FILE: text,
  QBRIDGE_EMAIL_FROM: text,
  QBRIDGE_EMAIL_SECOND_AFTER: text,
  QBRIDGE_EMAIL_DIGEST_AT: text,
});

const FROM_PROBLEM =
  'QBRIDGE_EMAIL_FROM must be the address questions are sent from, e.g. "question-bridge <q@example.org>" or q@example.org';
const SECOND_AFTER_PROBLEM =
  "QBRIDGE_EMAIL_SECOND_AFTER must be an ISO-8601 duration over zero such as PT30M (how long a question waits untapped on Telegram before it is e-mailed too)";

/** QBRIDGE_EMAIL_SECOND_AFTER in milliseconds (the default when unset); undefined when wrong. */
function secondAfter(value: string | undefined): number | undefined {
  if (value === undefined) return SECOND_AFTER_DEFAULT_MS;
  const ms = parseDuration(value) ?? 0;
  return ms > 0 ? ms : undefined;
}

const DIGEST_AT_PROBLEM =
  "QBRIDGE_EMAIL_DIGEST_AT must be a time of day as HH:MM, e.g. 08:00 (when the daily digest of what waits is e-mailed, in QBRIDGE_TIMEZONE); leave it unset for no digest";

/** QBRIDGE_EMAIL_DIGEST_AT as a time of day; undefined when unset; a string when wrong. */
function digestAt(value: string | undefined): DigestTime | undefined | typeof DIGEST_AT_PROBLEM {
  if (value === undefined) return undefined;
  const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(value.trim());
  return match ? { hour: Number(match[1]), minute: Number(match[2]) } : DIGEST_AT_PROBLEM;
}

type Raw = z.infer<typeof raw>;

/** One server's URL with its password file read in; each problem named by its variable. */
function server(e: Raw, kind: "IMAP" | "SMTP", ctx: z.RefinementCtx): ImapServer | undefined {
  const name = `QBRIDGE_EMAIL_${kind}_URL`;
  const text = e[name as keyof Raw] as string | undefined;
  const fileName = `QBRIDGE_EMAIL_${kind}_PASSWORD_FILE`;
  const file = e[fileName as keyof Raw] as string | undefined;
  const problem = (message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message });
  if (text === undefined) return undefined;
  const schemes: [string, string] = kind === "IMAP" ? ["imap", "imaps"] : ["smtp", "smtps"];
  const parsed = serverOf(text, schemes);
  if (typeof parsed === "string") {
    problem(
      `${name} ${parsed}: give ${schemes[1]}://user:password@host:port${kind === "IMAP" ? "/MAILBOX" : ""}`,
    );
    return undefined;
  }
  if (file === undefined) return parsed;
  if (parsed.password !== undefined) {
    problem(`${name} carries a password and ${fileName} is set too: keep one of them`);
    return undefined;
  }
  const read = passwordIn(file);
  if ("problem" in read) {
    problem(`${fileName} ${read.problem}: it must hold the ${kind} password on its first line`);
    return undefined;
  }
  return { ...parsed, password: read.password };
}

export const emailSettings = raw.transform((e, ctx): EmailSettings => {
  const problem = (message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message });
  const from = e.QBRIDGE_EMAIL_FROM;
  const fromAddress = from === undefined ? undefined : addressOf(from);
  if (from !== undefined && !fromAddress) problem(FROM_PROBLEM);
  const imap = server(e, "IMAP", ctx);
  const smtp = server(e, "SMTP", ctx);
  const given = [e.QBRIDGE_EMAIL_IMAP_URL, e.QBRIDGE_EMAIL_SMTP_URL, from];
  const secondAfterMs = secondAfter(e.QBRIDGE_EMAIL_SECOND_AFTER) ?? SECOND_AFTER_DEFAULT_MS;
  if (secondAfter(e.QBRIDGE_EMAIL_SECOND_AFTER) === undefined) problem(SECOND_AFTER_PROBLEM);
  const digest = digestAt(e.QBRIDGE_EMAIL_DIGEST_AT);
  if (typeof digest === "string") problem(digest);
  if (given.every((v) => v === undefined)) return { on: false, secondAfterMs };
  if (given.some((v) => v === undefined)) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message:
        "QBRIDGE_EMAIL_IMAP_URL, QBRIDGE_EMAIL_SMTP_URL and QBRIDGE_EMAIL_FROM go together: set all three to turn e-mail on, or none",
    });
    return { on: false, secondAfterMs };
  }
  if (!imap || !smtp || !from || !fromAddress) return { on: false, secondAfterMs };
  const { mailbox: _path, ...smtpServer } = smtp;
  return {
    on: true,
    imap,
    smtp: smtpServer,
    from,
    fromAddress,
    secondAfterMs,
    digestAt: typeof digest === "string" ? undefined : digest,
  };
});
