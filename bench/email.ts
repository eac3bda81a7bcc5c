// The e-mail bridge's figures, on the same real servers its tests use (Dovecot, smtp-server in
// process), each beside its floor: filed to the e-mail handed to SMTP (ask, the slot presents,
// the message accepted by the server) beside a bare nodemailer send of the same size; and a
// reply appended to the mailbox to its answer recorded (IDLE wakes the bridge, the reply is
// parsed, judged, committed, answered) beside a bare IMAP append and fetch of it.

import { ImapFlow } from "imapflow";
import { createTransport } from "nodemailer";
import { answerQuestion } from "../src/questions/answer.ts";
import { askQuestion } from "../src/questions/ask.ts";
import { loadQuestion } from "../src/questions/store.ts";
import { removeBoxLayout, selectCard } from "../test/support/box.ts";
import {
  MAILBOX_PASSWORD,
  MAILBOX_USER,
  type MailServers,
  startDovecot,
  startOutbox,
} from "../test/support/dovecot.ts";
import { composeReply, openEmailHarness } from "../test/support/email.ts";
import { row, timeIt } from "./stats.ts";

const RUNS = Number(process.env.BENCH_EMAIL_RUNS ?? 10);

/** Resolves once the outbox holds `count` messages (bounded). */
async function handedOver(servers: MailServers, count: number): Promise<void> {
  await servers.outbox.nth(count);
}

async function benchFiledToSmtp(servers: MailServers): Promise<string> {
  const h = await openEmailHarness(servers);
  const figure: number[] = [];
  const floor: number[] = [];
  const transport = createTransport(new URL(servers.outbox.url).href);
  for (let i = 0; i < RUNS; i++) {
    const before = servers.outbox.sent.length;
    figure.push(
      await timeIt(async () => {
        await askQuestion(h.box, selectCard({ prompt: `Bench question ${i}?` }));
        await h.slot.reconcile();
        await handedOver(servers, before + 1);
      }),
    );
    const mail = h.lastTo();
    floor.push(
      await timeIt(() =>
        transport.sendMail({
          from: "q@bridge.test",
          to: "boxholder@home.test",
          subject: mail.mail.subject,
          text: mail.mail.text,
          html: mail.mail.html || undefined,
        }),
      ),
    );
    // Untimed: the question answered, so the next one is presented.
    const open = h.slot.current();
    if (open) await answerQuestion(h.box, open.questionId, { text: "a" }, { via: "bench" });
    await h.slot.reconcile();
  }
  transport.close();
  await h.stop();
  h.box.cleanup();
  return row("e-mail: filed to handed to SMTP", figure, "bare nodemailer send", floor);
}

async function benchReplyToRecorded(servers: MailServers): Promise<string> {
  const h = await openEmailHarness(servers);
  const client = new ImapFlow({
    host: "127.0.0.1",
    port: servers.dovecot.port,
    secure: false,
    auth: { user: MAILBOX_USER, pass: MAILBOX_PASSWORD },
    logger: false,
  });
  await client.connect();
  const floorBox = await servers.dovecot.mailbox();
  const figure: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { id, mail } = await h.present(selectCard({ prompt: `Bench reply ${i}?` }));
    const raw = await composeReply(mail, "b");
    figure.push(await timeIt(() => h.deliver(raw)));
    if (loadQuestion(h.box, id).card.status !== "answered")
      throw new Error("the reply answered nothing");
    floor.push(
      await timeIt(async () => {
        const uid = await servers.dovecot.deliver(String(raw), floorBox.name);
        const lock = await client.getMailboxLock(floorBox.name);
        try {
          await client.fetchOne(String(uid), { source: true }, { uid: true });
        } finally {
          lock.release();
        }
      }),
    );
  }
  await client.logout();
  await h.stop();
  h.box.cleanup();
  return row("e-mail: reply appended to recorded", figure, "bare IMAP append + fetch", floor);
}

export async function benchEmail(): Promise<string[]> {
  const servers = { dovecot: await startDovecot(), outbox: await startOutbox() };
  try {
    return [await benchFiledToSmtp(servers), await benchReplyToRecorded(servers)];
  } finally {
    await servers.outbox.close();
    await servers.dovecot.stop();
    // The harness makes its boxes from the test helpers' layout: no setup file removes it here.
    await removeBoxLayout();
  }
}
