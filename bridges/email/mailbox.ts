// Reading the mailbox replies arrive in, by imapflow: connect, open the mailbox, read every
// message past the last UID read, then wait in IDLE for the server to say more arrived. Each
// message is handed on in UID order, and its UID is kept (in the ledger, per UIDVALIDITY) only
// after it was handled, so after a restart reading goes on where it stopped; a message read
// twice (a crash between handling and keeping) meets the judge's record of its Message-ID.
// A server that cannot be reached is retried with backoff and said in `onHealth`, never fatal.

import { setTimeout as sleep } from "node:timers/promises";
import { ImapFlow } from "imapflow";
import { backoffDelay } from "../../src/backoff.ts";
import type { ImapServer } from "./settings.ts";

/** Where reading stands: the last UID handled, per mailbox and UIDVALIDITY. */
export interface UidMark {
  get(validity: string): number | undefined;
  set(validity: string, uid: number): void;
}

export interface MailboxDeps {
  imap: ImapServer;
  mark: UidMark;
  /** Handles one message; resolves once it was handled (its UID is then kept). */
  onMessage(uid: number, raw: Buffer): Promise<void>;
  onHealth(ok: boolean, reason?: string): void;
  logger: { warn(obj: object, msg?: string): void };
  /** How long the connection stays quiet before IDLE starts (ms). */
  idleDelayMs?: number | undefined;
}

export interface Mailbox {
  /** Settles once the mailbox was opened and what waited in it was read (or reading failed). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

const RETRY = { firstMs: 1_000, maxMs: 5 * 60_000, jitterMs: 500 };

function clientFor(deps: MailboxDeps): ImapFlow {
  const { imap } = deps;
  return new ImapFlow({
    host: imap.host,
    port: imap.port,
    secure: imap.secure,
    ...(imap.user ? { auth: { user: imap.user, pass: imap.password ?? "" } } : {}),
    logger: false,
    autoIdleDelay: deps.idleDelayMs ?? 1_000,
  });
}

/** Reads every message past the mark, in UID order, each handled before the next. */
async function readNew(client: ImapFlow, deps: MailboxDeps): Promise<void> {
  const mailbox = client.mailbox;
  if (!mailbox) return;
  const validity = String(mailbox.uidValidity);
  let last = deps.mark.get(validity);
  if (last === undefined) {
    // A mailbox read for the first time: what was in it before this bridge started is not ours.
    last = mailbox.uidNext - 1;
    deps.mark.set(validity, last);
  }
  // "N:*" names the newest message even when its UID is below N: filtered below.
  const found = await client.fetchAll(`${last + 1}:*`, { uid: true, source: true }, { uid: true });
  for (const message of found.sort((x, y) => x.uid - y.uid)) {
    if (message.uid <= last || !message.source) continue;
    await deps.onMessage(message.uid, message.source);
    deps.mark.set(validity, message.uid);
    last = message.uid;
    await client.messageFlagsAdd(String(message.uid), ["\\Seen"], { uid: true });
  }
}

/** One connection's life: open, read, then read again on each new message until it closes. */
async function session(client: ImapFlow, deps: MailboxDeps, opened: () => void): Promise<void> {
  await client.connect();
  await client.mailboxOpen(deps.imap.mailbox);
  deps.onHealth(true);
  // A message that arrives while a read runs is read next: its word is kept until then.
  let more = false;
  let wake: () => void = () => undefined;
  client.on("exists", () => {
    more = true;
    wake();
  });
  const closed = new Promise<void>((resolve) => client.once("close", () => resolve()));
  await readNew(client, deps);
  opened();
  for (;;) {
    if (!more) {
      const next = new Promise<"more" | "closed">((resolve) => {
        wake = () => resolve("more");
        void closed.then(() => resolve("closed"));
      });
      if ((await next) === "closed") return;
    }
    more = false;
    await readNew(client, deps);
  }
}

export function watchMailbox(deps: MailboxDeps): Mailbox {
  let stopped = false;
  let client: ImapFlow | undefined;
  let opened: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const stop = new AbortController();
  const loop = (async () => {
    for (let retry = 0; !stopped; retry++) {
      client = clientFor(deps);
      client.on("error", () => undefined);
      try {
        await session(client, deps, () => {
          retry = 0;
          opened();
        });
      } catch (error) {
        if (stopped) return;
        const reason = `the mailbox cannot be read: ${(error as Error).message}`;
        deps.onHealth(false, reason);
        deps.logger.warn({ err: error }, "e-mail: the mailbox cannot be read; retrying");
        opened();
      }
      client.close();
      if (stopped) return;
      await sleep(backoffDelay(retry, RETRY), undefined, { signal: stop.signal }).catch(() => {});
    }
  })();
  return {
    ready,
    async stop() {
      stopped = true;
      stop.abort();
      await client?.logout().catch(() => client?.close());
      await loop;
    },
  };
}
