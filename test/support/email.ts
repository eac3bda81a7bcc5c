// One place that builds the e-mail bridge for tests: a temporary box, its slot, and the bridge
// (bridges/email/serve.ts) on the real servers of dovecot.ts, one fresh mailbox per harness.
// The boxholder's replies are composed by nodemailer's MailComposer (quoted text and a
// signature under them, as a mail client writes) and delivered into the mailbox over IMAP.

import MailComposer from "nodemailer/lib/mail-composer";
import { email } from "../../bridges/email/bridge.ts";
import { createEmailBridge, type EmailOn, type EmailSeams } from "../../bridges/email/serve.ts";
import { emailSettings } from "../../bridges/email/settings.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { type Bridge, declared } from "../../src/slot/bridge.ts";
import { openDoor } from "../../src/slot/door.ts";
import { createSlot, type Slot } from "../../src/slot/slot.ts";
import { makeBox, type TestBox } from "./box.ts";
import type { MailServers, Sent } from "./dovecot.ts";

export const BOXHOLDER = "boxholder@home.test";
export const STRANGER = "stranger@else.test";
export const FROM = "question-bridge <q@bridge.test>";

export interface EmailHarness {
  box: TestBox;
  slot: Slot;
  bridge: Bridge;
  /** The mailbox its replies are read from. */
  mailbox: { name: string; url: string };
  /** The messages handed to SMTP since this harness opened. */
  sent(): Sent[];
  /** The newest message handed to SMTP to `to` (the boxholder by default). */
  lastTo(to?: string): Sent;
  /** Files a question, lets the slot present it, and resolves to its id and its e-mail. */
  present(card: Record<string, unknown>): Promise<{ id: string; mail: Sent }>;
  /** Delivers a raw message into the mailbox and waits until the bridge handled it. */
  deliver(raw: Buffer | string): Promise<void>;
  /** Composes a reply to `to` (first line `text`, the e-mail quoted under it) and delivers it. */
  reply(to: Sent, text: string, options?: ReplyOptions): Promise<Buffer>;
  /** Stops the bridge and the slot (the box is cleaned by cleanupBoxes); opened again on it, it restarts. */
  stop(): Promise<void>;
}

export interface ReplyOptions {
  from?: string;
  /** Headers to add (Authentication-Results...). */
  headers?: Record<string, string>;
  /** Leave In-Reply-To and References out, or name another e-mail in them. */
  inReplyTo?: string | null;
}

export interface HarnessOptions {
  box?: TestBox;
  /** The slot of another bridge's harness (Telegram's), to run beside it; made here by default. */
  slot?: Slot;
  /** A mailbox an earlier harness read (a restart); a new one by default. */
  mailbox?: { name: string; url: string };
  /** The boxholder's paired address; null for none yet. */
  owner?: string | null;
  env?: Record<string, string>;
  link?: (id: string) => string | undefined;
  /** How often the bridge looks at the daily digest's time (ms). */
  digestEveryMs?: number;
}

/** A reply as a mail client writes it: the first line, a signature, the e-mail quoted below. */
export async function composeReply(to: Sent, text: string, options: ReplyOptions = {}) {
  // As a mail client answers: In-Reply-To the e-mail, References its thread and the e-mail.
  const id = options.inReplyTo ?? to.mail.messageId ?? "";
  const before = options.inReplyTo ? [] : [to.mail.references ?? []].flat();
  const thread = options.inReplyTo === null ? {} : { inReplyTo: id, references: [...before, id] };
  const quoted = (to.mail.text ?? "")
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
  const composer = new MailComposer({
    from: options.from ?? BOXHOLDER,
    to: FROM,
    subject: `Re: ${to.mail.subject ?? ""}`,
    ...thread,
    headers: options.headers ?? {},
    text: `${text}\n\n-- \nSent from my phone\n\nOn Fri, 10 Jul 2026 at 11:00, question-bridge wrote:\n${quoted}\n`,
  });
  return composer.compile().build();
}

/** Tells when the bridge handled the message of a UID (its seam), waiting a bounded time. */
function handledUids() {
  const waiting = new Map<number, () => void>();
  const handled = new Set<number>();
  return {
    seams: {
      idleDelayMs: 20,
      onHandled(uid: number) {
        handled.add(uid);
        waiting.get(uid)?.();
      },
    } satisfies EmailSeams,
    async wait(uid: number): Promise<void> {
      if (handled.has(uid)) return;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`message ${uid} not handled in 30 s`)),
          30_000,
        );
        waiting.set(uid, () => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/** The bridge on the slot, started and through the first read of its mailbox. */
async function startBridge(
  slot: Slot,
  settings: EmailOn,
  seams: EmailSeams,
  link: (id: string) => string | undefined,
): Promise<Bridge> {
  const bridge = await createEmailBridge(settings, {
    door: openDoor(slot, declared(email.surface, email.proves, undefined)),
    logger: { info() {}, warn() {}, error() {} },
    web: { host: "127.0.0.1" },
    link,
    questionsLink: () => undefined,
    health() {},
    fail() {},
    seams,
  });
  await bridge.start();
  await bridge.ready;
  return bridge;
}

export async function openEmailHarness(
  servers: MailServers,
  options: HarnessOptions = {},
): Promise<EmailHarness> {
  const box = options.box ?? (await makeBox());
  const slot = options.slot ?? createSlot({ core: box });
  const { dovecot, outbox } = servers;
  const mailbox = options.mailbox ?? (await dovecot.mailbox());
  const settings = emailSettings.parse({
    QBRIDGE_EMAIL_IMAP_URL: mailbox.url,
    QBRIDGE_EMAIL_SMTP_URL: outbox.url,
    QBRIDGE_EMAIL_FROM: FROM,
    ...options.env,
  }) as EmailOn;
  const owner = options.owner === undefined ? BOXHOLDER : options.owner;
  if (owner) slot.owners.bind("email", owner, box.box.clock.iso(), "test");
  const uids = handledUids();
  const link = options.link ?? ((id) => `http://127.0.0.1:8787/q/${id}?s=signed`);
  const seams = { ...uids.seams, digestEveryMs: options.digestEveryMs };
  const bridge = await startBridge(slot, settings, seams, link);
  const start = outbox.sent.length;
  const sent = () => outbox.sent.slice(start);
  const deliver = async (raw: Buffer | string) =>
    uids.wait(await dovecot.deliver(String(raw), mailbox.name));
  return {
    box,
    slot,
    bridge,
    mailbox,
    sent,
    lastTo(to = BOXHOLDER) {
      const found = sent()
        .filter((s) => s.to.includes(to))
        .at(-1);
      if (!found) throw new Error(`nothing was sent to ${to}`);
      return found;
    },
    async present(card) {
      const { id } = await askQuestion(box, card);
      const before = sent().length;
      await slot.reconcile();
      const mail = sent()[before];
      if (!mail) throw new Error("the question was not e-mailed");
      return { id, mail };
    },
    deliver,
    async reply(to, text, replyOptions) {
      const raw = await composeReply(to, text, replyOptions);
      await deliver(raw);
      return raw;
    },
    async stop() {
      await bridge.stop();
      await slot.close();
    },
  };
}
