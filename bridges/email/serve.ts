// The e-mail bridge as `qbridge serve` runs it: the sender (SMTP) and the presenter attached to
// the slot, and the mailbox read for replies (IMAP with IDLE), each message handled once. A
// server that cannot be reached is said in /healthz and retried; it never ends the service.

import type { Bridge, BridgeDeps } from "../../src/slot/port.ts";
import { DIGEST_DAY_KEY, type DigestDeps, sendDigestIfDue } from "./digest.ts";
import { handleMessage } from "./inbound.ts";
import { type UidMark, watchMailbox } from "./mailbox.ts";
import { createSender, type Sender } from "./outgoing.ts";
import { createEmailPresenter } from "./presenter.ts";
import type { EmailSettings, ImapServer } from "./settings.ts";

export type EmailOn = Extract<EmailSettings, { on: true }>;

/** Test seams `startService` passes through for this surface. */
export interface EmailSeams {
  /** How long the IMAP connection stays quiet before IDLE (ms). */
  idleDelayMs?: number;
  /** Told once each message read from the mailbox was handled (or failed). */
  onHandled?: (uid: number) => void;
  /** How often the daily digest's time is looked at (ms). */
  digestEveryMs?: number;
}

/** How often the daily digest's time is looked at: it goes out within a minute of it. */
const DIGEST_EVERY_MS = 60_000;

/** The last UID read, in the bridge's own ledger values, per mailbox and UIDVALIDITY. */
function uidMark(deps: BridgeDeps, imap: ImapServer): UidMark {
  const { meta } = deps.door;
  const key = (validity: string) =>
    `uid ${imap.user ?? ""}@${imap.host}:${imap.port}/${imap.mailbox} ${validity}`;
  return {
    get(validity) {
      const text = meta.get(key(validity));
      return text === undefined ? undefined : Number(text);
    },
    set: (validity, uid) => meta.set(key(validity), String(uid)),
  };
}

export function createEmailBridge(settings: EmailOn, deps: BridgeDeps): Bridge {
  const { door, logger } = deps;
  const seams = (deps.seams ?? {}) as EmailSeams;
  const sender = createSender(settings);
  const owner = () => door.owner();
  const secondAfterMs = settings.secondAfterMs;
  const now = () => door.now();
  door.attach(createEmailPresenter({ now, sender, owner, link: deps.link, secondAfterMs }));
  let mailbox: ReturnType<typeof watchMailbox> | undefined;
  let digestTimer: NodeJS.Timeout | undefined;
  let opened: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    opened = resolve;
  });
  return {
    async start() {
      mailbox = watchMailbox({
        imap: settings.imap,
        mark: uidMark(deps, settings.imap),
        async onMessage(uid, raw) {
          try {
            await handleMessage({ door, sender }, uid, raw);
          } catch (error) {
            logger.error({ err: error, uid }, "e-mail: a message could not be handled; read again");
            throw error;
          } finally {
            seams.onHandled?.(uid);
          }
        },
        onHealth: (ok, reason) => deps.health({ ok, ...(reason ? { reason } : {}) }),
        logger,
        idleDelayMs: seams.idleDelayMs,
      });
      void mailbox.ready.then(opened);
      digestTimer = watchDigest(settings, deps, sender, seams.digestEveryMs);
      return summary(settings, owner());
    },
    ready,
    async stop() {
      clearInterval(digestTimer);
      await mailbox?.stop();
      sender.close();
    },
  };
}

/** With QBRIDGE_EMAIL_DIGEST_AT set: the digest looked at now and every `everyMs`. */
function watchDigest(
  settings: EmailOn,
  deps: BridgeDeps,
  sender: Sender,
  everyMs = DIGEST_EVERY_MS,
): NodeJS.Timeout | undefined {
  const { digestAt } = settings;
  if (!digestAt) return undefined;
  const { door, logger } = deps;
  const digest: DigestDeps = {
    at: digestAt,
    sender,
    owner: () => door.owner(),
    waiting: () => door.waiting(),
    now: () => door.now(),
    timeZone: door.timeZone,
    day: {
      get: () => door.meta.get(DIGEST_DAY_KEY),
      set: (day) => door.meta.set(DIGEST_DAY_KEY, day),
    },
    link: deps.link,
    questionsLink: deps.questionsLink,
  };
  // One look at a time: a slow send is never overtaken by the next look (a second digest).
  let busy = false;
  const look = () => {
    if (busy) return;
    busy = true;
    sendDigestIfDue(digest)
      .catch((error) => logger.error({ err: error }, "e-mail: the daily digest could not be sent"))
      .finally(() => {
        busy = false;
      });
  };
  look();
  const timer = setInterval(look, everyMs);
  timer.unref();
  return timer;
}

function summary(settings: EmailOn, owner: string | undefined): string[] {
  const { imap, smtp } = settings;
  const digest = settings.digestAt
    ? [
        `email: a digest of what waits each day at ${String(settings.digestAt.hour).padStart(2, "0")}:${String(settings.digestAt.minute).padStart(2, "0")}`,
      ]
    : [];
  return [
    `email: replies read from ${imap.mailbox} on ${imap.host}:${imap.port}, sent through ${smtp.host}:${smtp.port} as ${settings.fromAddress}`,
    ...digest,
    owner
      ? `boxholder: e-mail ${owner}`
      : 'no e-mail boxholder yet: run "qbridge pair --email ADDRESS" and reply with the code',
  ];
}
