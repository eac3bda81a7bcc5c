// What the e-mail bridge does with what arrives in its mailbox, on Dovecot and smtp-server: a
// reply answers only when it is the paired address's, tied to the e-mail that showed the
// question, and not failed by the receiving server; everything else changes nothing and is
// audited. A reply to a question closed elsewhere is told so; a reply is read once, also when
// it arrived while the service was stopped.

import { afterEach, describe, expect, it } from "vitest";
import { answerQuestion } from "../../src/questions/answer.ts";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import {
  cleanupBoxes,
  gitLog,
  multiselectCard,
  selectCard,
  type TestBox,
  textCard,
} from "../support/box.ts";
import { useMailServers } from "../support/dovecot.ts";
import { BOXHOLDER, composeReply, openEmailHarness } from "../support/email.ts";

const servers = useMailServers();
afterEach(cleanupBoxes);

const answers = async (box: TestBox) =>
  (await gitLog(box.dir)).filter((s) => s.startsWith("answer:")).length;

async function nothingChanged(box: TestBox, id: string) {
  expect(loadQuestion(box, id).card.status).toBe("pending");
  expect(listJobs(box)).toHaveLength(0);
  expect(await answers(box)).toBe(0);
}

const lastAudit = (box: TestBox) => box.ledger.auditFor().at(-1);

describe("a reply that does not answer", () => {
  it("a reply whose sender's domain failed DMARC at the receiving server changes nothing, is audited and is not written to", async () => {
    const h = await openEmailHarness(servers());
    const { id, mail } = await h.present(selectCard());
    const sentBefore = h.sent().length;
    await h.reply(mail, "b", {
      headers: {
        "Authentication-Results":
          "mx.home.test; spf=fail smtp.mailfrom=home.test; dkim=none; dmarc=fail header.from=home.test",
      },
    });
    await nothingChanged(h.box, id);
    expect(lastAudit(h.box)).toMatchObject({ surface: "email", outcome: "refused:stranger" });
    expect(lastAudit(h.box)?.detail).toContain("dmarc=fail");
    expect(h.sent()).toHaveLength(sentBefore);
    await h.stop();
  });

  it("an SPF failure does not refuse a reply whose DKIM passed", async () => {
    const h = await openEmailHarness(servers());
    const { id, mail } = await h.present(selectCard());
    await h.reply(mail, "b", {
      headers: {
        "Authentication-Results":
          "mx.home.test; spf=fail smtp.mailfrom=home.test; dkim=pass header.d=home.test",
      },
    });
    expect(loadQuestion(h.box, id).card.answer).toMatchObject({ selected: "taxes" });
    await h.stop();
  });

  it("a reply with no In-Reply-To changes nothing, is audited, and is told to reply to the question's e-mail", async () => {
    const h = await openEmailHarness(servers());
    const { id, mail } = await h.present(selectCard());
    await h.reply(mail, "b", { inReplyTo: null });
    await nothingChanged(h.box, id);
    expect(lastAudit(h.box)).toMatchObject({ actor: BOXHOLDER, outcome: "refused:stranger" });
    expect(lastAudit(h.box)?.detail).toContain("not replying to a message that showed a question");
    expect(h.lastTo().mail.text).toContain("does not reply to an e-mail that showed a question");
    await h.stop();
  });

  it("a reply naming a foreign e-mail changes nothing and is audited", async () => {
    const h = await openEmailHarness(servers());
    const { id, mail } = await h.present(selectCard());
    await h.reply(mail, "b", { inReplyTo: "<guessed.qbridge@bridge.test>" });
    await nothingChanged(h.box, id);
    expect(lastAudit(h.box)).toMatchObject({ actor: BOXHOLDER, outcome: "refused:stranger" });
    expect(lastAudit(h.box)?.detail).toContain("not replying to a message that showed a question");
    await h.stop();
  });

  it("an automatic reply (out of office) is read by nobody and answered by nothing", async () => {
    const h = await openEmailHarness(servers());
    const { id, mail } = await h.present(selectCard());
    const sentBefore = h.sent().length;
    await h.reply(mail, "b", { headers: { "Auto-Submitted": "auto-replied" } });
    await nothingChanged(h.box, id);
    expect(h.sent()).toHaveLength(sentBefore);
    await h.stop();
  });
});

describe("a reply to a question closed elsewhere, and a reply read once", () => {
  it("a reply to an e-mail whose question was answered elsewhere is told so in one e-mail and changes nothing", async () => {
    const h = await openEmailHarness(servers());
    const { id, mail } = await h.present(selectCard());
    await answerQuestion(h.box, id, { text: "a" }, { via: "web" });
    await h.slot.reconcile();
    const told = h.lastTo().mail.text ?? "";
    expect(told).toContain("Answered via web: Finance");
    await h.reply(mail, "b");
    expect(h.lastTo().mail.text).toContain(
      "Not recorded: that question was already answered via web: Finance",
    );
    expect(loadQuestion(h.box, id).card.answer).toMatchObject({ selected: "finance" });
    expect(listJobs(h.box)).toHaveLength(1);
    await h.stop();
  });

  it("a reply in the thread of an answered question, to the e-mail saying what was recorded, never answers the question open now", async () => {
    const h = await openEmailHarness(servers());
    const first = await h.present(selectCard());
    await h.reply(first.mail, "a");
    const recorded = h.lastTo();
    expect(recorded.mail.text).toContain("Recorded: Finance");
    const open = await h.present(textCard());
    await h.reply(recorded, "Taxes, actually");
    expect(loadQuestion(h.box, open.id).card.status).toBe("pending");
    expect(listJobs(h.box)).toHaveLength(1);
    expect(loadQuestion(h.box, first.id).card.answer).toMatchObject({ selected: "finance" });
    expect(h.lastTo().mail.text).toContain(
      "Not recorded: your reply is in the thread of “Where do photographed receipts belong?”",
    );
    await h.reply(open.mail, "Ada");
    expect(loadQuestion(h.box, open.id).card.answer).toMatchObject({ text: "Ada" });
    await h.stop();
  });

  it("a reply that arrived while the service was stopped is read once after the restart", async () => {
    const first = await openEmailHarness(servers());
    const { id, mail } = await first.present(selectCard());
    const mailbox = first.mailbox;
    await first.stop();
    await servers().dovecot.deliver(String(await composeReply(mail, "b")), mailbox.name);
    const again = await openEmailHarness(servers(), { box: first.box, mailbox });
    expect(loadQuestion(again.box, id).card).toMatchObject({
      status: "answered",
      "answered-via": "email",
      "answered-by": BOXHOLDER,
    });
    await again.stop();
    const third = await openEmailHarness(servers(), { box: first.box, mailbox });
    expect(listJobs(third.box)).toHaveLength(1);
    expect(await answers(third.box)).toBe(1);
    expect(third.sent()).toHaveLength(0);
    await third.stop();
  });
});

describe("a reply confirming an irreversible answer", () => {
  it("yes to the older of two confirming e-mails records the answer that e-mail asked about, never the newer one", async () => {
    const h = await openEmailHarness(servers());
    const { id, mail } = await h.present(selectCard({ irreversible: true }));
    await h.reply(mail, "b");
    const askedTaxes = h.lastTo();
    expect(askedTaxes.mail.text).toContain('Record "Taxes" as your answer? It cannot be undone.');
    await h.reply(mail, "a");
    const askedFinance = h.lastTo();
    expect(askedFinance.mail.text).toContain('Record "Finance" as your answer?');
    await h.reply(askedTaxes, "yes");
    expect(loadQuestion(h.box, id).card.answer).toMatchObject({ selected: "taxes" });
    await h.reply(askedFinance, "yes");
    expect(loadQuestion(h.box, id).card.answer).toMatchObject({ selected: "taxes" });
    expect(listJobs(h.box)).toHaveLength(1);
    await h.stop();
  });
});

describe("a reply to a multi-select", () => {
  it("names its picks by letters or labels with commas, as typed on Telegram, and says how in the e-mail", async () => {
    const h = await openEmailHarness(servers());
    const { id, mail } = await h.present(multiselectCard());
    expect(mail.mail.text).toContain("a) Unit tests\nb) Lint\nc) Type check");
    expect(mail.mail.text).toContain("Reply with letters or labels separated by commas");
    await h.reply(mail, "Type check, a");
    expect(loadQuestion(h.box, id).card).toMatchObject({
      status: "answered",
      "answered-via": "email",
      answer: { text: "Unit tests, Type check", selected: "unit,types" },
    });
    expect(h.lastTo().mail.text).toContain("Recorded: Unit tests, Type check");
    expect(listJobs(h.box)).toHaveLength(1);
    await h.stop();
  });
});
