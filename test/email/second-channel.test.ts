// The second channel, with both bridges on one slot: Telegram (on the emulator) presents, and a
// question left untapped there for QBRIDGE_EMAIL_SECOND_AFTER (or of high priority, at once) is
// e-mailed too, labelled as waiting on Telegram. The first answer wins through the judge; the
// other surface says so.

import { expect, it } from "vitest";
import { createClock } from "../../src/box/clock.ts";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { gitLog, selectCard, type TestBox } from "../support/box.ts";
import { useMailServers } from "../support/dovecot.ts";
import { openEmailHarness } from "../support/email.ts";
import { buttonData, openHarness, presentQuestion, useEmulator } from "../support/telegram.ts";

const emulator = useEmulator();
const servers = useMailServers();

/** Moves the box's clock on: the slot reads it on each look. */
function later(box: TestBox, time: string) {
  (box.box as { clock: ReturnType<typeof createClock> }).clock = createClock(time);
}

async function bothBridges() {
  const telegram = await openHarness(emulator());
  const email = await openEmailHarness(servers(), { box: telegram, slot: telegram.slot });
  return { telegram, email };
}

it("a question untapped on Telegram for the set time is e-mailed too; its reply answers and edits the Telegram message", async () => {
  const { telegram, email } = await bothBridges();
  const { id, message } = await presentQuestion(telegram, selectCard());
  await telegram.slot.reconcile();
  expect(email.sent()).toHaveLength(0);
  later(telegram, "2026-07-10T09:29:00Z");
  await telegram.slot.reconcile();
  expect(email.sent()).toHaveLength(0);
  later(telegram, "2026-07-10T09:31:00Z");
  await telegram.slot.reconcile();
  const mail = email.lastTo();
  expect(mail.mail.subject).toBe("[waiting on Telegram] Where do photographed receipts belong?");
  expect(mail.mail.text).toContain("waiting for you on Telegram");
  await email.reply(mail, "b");
  expect(loadQuestion(telegram, id).card).toMatchObject({
    status: "answered",
    "answered-via": "email",
    answer: { selected: "taxes" },
  });
  const edits = telegram
    .sent("editMessageText")
    .filter((c) => c.payload.message_id === message.messageId);
  expect(String(edits.at(-1)?.payload.text)).toContain("Answered via email: Taxes");
  expect(listJobs(telegram)).toHaveLength(1);
  expect((await gitLog(telegram.dir)).filter((s) => s.startsWith("answer:"))).toHaveLength(1);
  later(telegram, "2026-07-10T10:31:00Z");
  await telegram.slot.reconcile();
  expect(email.sent().filter((s) => s.mail.subject?.startsWith("[waiting"))).toHaveLength(1);
  await email.stop();
});

it("a question of high priority is e-mailed at once beside Telegram", async () => {
  const { telegram, email } = await bothBridges();
  await presentQuestion(telegram, selectCard({ priority: "high" }));
  await telegram.slot.reconcile();
  expect(email.lastTo().mail.subject).toBe(
    "[waiting on Telegram] Where do photographed receipts belong?",
  );
  await email.stop();
});

it("answered on Telegram first, the e-mail's thread is told so and a reply to it records nothing", async () => {
  const { telegram, email } = await bothBridges();
  const { id, message } = await presentQuestion(telegram, selectCard({ priority: "high" }));
  await telegram.slot.reconcile();
  const mail = email.lastTo();
  await telegram.owner.tap(buttonData(message, "a)"), message.messageId);
  await telegram.pump();
  expect(email.lastTo().mail.text).toContain("Answered via telegram: Finance");
  await email.reply(mail, "b");
  expect(email.lastTo().mail.text).toContain(
    "Not recorded: that question was already answered via telegram: Finance",
  );
  expect(loadQuestion(telegram, id).card.answer).toMatchObject({ selected: "finance" });
  expect(listJobs(telegram)).toHaveLength(1);
  await email.stop();
});
