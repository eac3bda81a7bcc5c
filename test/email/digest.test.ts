// The daily digest of what waits, an option: with QBRIDGE_EMAIL_DIGEST_AT set, once a day at or
// after that time (the box's clock and time zone) the boxholder gets one e-mail saying how many
// questions wait and which is open, with its link; never before the time, never twice a day,
// never when nothing waits. Without the setting there is none.

import { afterEach, describe, expect, it } from "vitest";
import { type DigestDeps, localDay, sendDigestIfDue } from "../../bridges/email/digest.ts";
import type { Outgoing, Sender } from "../../bridges/email/outgoing.ts";
import { emailSettings } from "../../bridges/email/settings.ts";
import { createClock } from "../../src/box/clock.ts";
import { cleanupBoxes, makeBox, selectCard, type TestBox } from "../support/box.ts";
import { useMailServers } from "../support/dovecot.ts";
import { BOXHOLDER, openEmailHarness } from "../support/email.ts";

const servers = useMailServers();
afterEach(cleanupBoxes);

const SETTINGS = {
  QBRIDGE_EMAIL_IMAP_URL: "imap://u:p@127.0.0.1:1143/INBOX",
  QBRIDGE_EMAIL_SMTP_URL: "smtp://127.0.0.1:2525",
  QBRIDGE_EMAIL_FROM: "q@bridge.test",
};

/** The digest's parts around a clock that the test moves, a recording sender and the day kept. */
function digestAround(waiting: DigestDeps["waiting"]) {
  const sent: { to: string; mail: Outgoing }[] = [];
  const clock = { now: new Date("2026-07-10T07:59:00Z") };
  let kept: string | undefined;
  const sender: Sender = {
    async send(to, mail) {
      sent.push({ to, mail });
      return `<${sent.length}@bridge.test>`;
    },
    async verify() {},
    close() {},
  };
  const deps: DigestDeps = {
    at: { hour: 8, minute: 0 },
    sender,
    owner: () => BOXHOLDER,
    waiting,
    now: () => clock.now,
    timeZone: "UTC",
    day: {
      get: () => kept,
      set: (day) => {
        kept = day;
      },
    },
    link: (id) => `https://q.example.org/q/${id}?s=sig`,
    questionsLink: () => "https://q.example.org/q?s=sig",
  };
  return { deps, sent, clock };
}

const TWO_WAIT = () => ({
  count: 2,
  top: { id: "receipts", card: { prompt: "Where do photographed receipts belong?" } },
  presented: { seq: 1 },
});

describe("the daily digest", () => {
  it("is off unless QBRIDGE_EMAIL_DIGEST_AT is set, and a wrong time is named", () => {
    expect(emailSettings.parse(SETTINGS)).toMatchObject({ on: true, digestAt: undefined });
    expect(emailSettings.parse({ ...SETTINGS, QBRIDGE_EMAIL_DIGEST_AT: "07:30" })).toMatchObject({
      digestAt: { hour: 7, minute: 30 },
    });
    const wrong = emailSettings.safeParse({ ...SETTINGS, QBRIDGE_EMAIL_DIGEST_AT: "7pm" });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues.map((i) => i.message)).toEqual([
      expect.stringContaining("QBRIDGE_EMAIL_DIGEST_AT must be a time of day as HH:MM"),
    ]);
  });

  it("goes out once a day at or after its time, saying what waits and where", async () => {
    const { deps, sent, clock } = digestAround(TWO_WAIT);
    expect(await sendDigestIfDue(deps)).toBe(false);
    clock.now = new Date("2026-07-10T08:00:00Z");
    expect(await sendDigestIfDue(deps)).toBe(true);
    clock.now = new Date("2026-07-10T17:00:00Z");
    expect(await sendDigestIfDue(deps)).toBe(false);
    clock.now = new Date("2026-07-11T08:30:00Z");
    expect(await sendDigestIfDue(deps)).toBe(true);
    expect(sent.map((s) => s.to)).toEqual([BOXHOLDER, BOXHOLDER]);
    expect(sent[0]?.mail.subject).toBe("2 questions wait on you");
    expect(sent[0]?.mail.text).toContain("Open now: Where do photographed receipts belong?");
    expect(sent[0]?.mail.text).toContain("https://q.example.org/q/receipts?s=sig");
    expect(sent[0]?.mail.text).toContain("All that waits: https://q.example.org/q?s=sig");
  });

  it("is not sent on a day nothing waits at its time, nor later that day", async () => {
    let waiting = { count: 0, top: undefined, presented: undefined } as ReturnType<
      DigestDeps["waiting"]
    >;
    const { deps, sent, clock } = digestAround(() => waiting);
    clock.now = new Date("2026-07-10T08:01:00Z");
    expect(await sendDigestIfDue(deps)).toBe(false);
    waiting = TWO_WAIT();
    clock.now = new Date("2026-07-10T12:00:00Z");
    expect(await sendDigestIfDue(deps)).toBe(false);
    expect(sent).toEqual([]);
  });

  it("is read in the box's time zone", () => {
    expect(localDay(new Date("2026-07-10T23:30:00Z"), "Europe/Berlin")).toEqual({
      day: "2026-07-11",
      minute: 90,
    });
  });

  it("the running bridge e-mails it when its time comes, once, and never again after a restart that day", async () => {
    const box = await makeBox({ time: "2026-07-10T07:59:00Z" });
    const env = { QBRIDGE_EMAIL_DIGEST_AT: "08:00" };
    const h = await openEmailHarness(servers(), { box, env, digestEveryMs: 20 });
    await h.present(selectCard());
    const digests = () => h.sent().filter((s) => / on you$/.test(s.mail.subject ?? ""));
    expect(digests()).toHaveLength(0);
    setClock(box, "2026-07-10T08:00:30Z");
    await expect.poll(() => digests().length, { timeout: 5_000 }).toBe(1);
    expect(digests()[0]?.mail.text).toContain("1 question waits on you.");
    expect(digests()[0]?.to).toEqual([BOXHOLDER]);
    await h.stop();
    const again = await openEmailHarness(servers(), { box, env, mailbox: h.mailbox });
    expect(digests()).toHaveLength(1);
    await again.stop();
  });
});

/** Moves the box's clock: the bridge reads it on each look. */
function setClock(box: TestBox, time: string) {
  (box.box as { clock: ReturnType<typeof createClock> }).clock = createClock(time);
}
