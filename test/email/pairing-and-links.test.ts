// A new user's way in and the e-mail's buttons, on Dovecot and smtp-server: `qbridge pair
// --email` sends a code and the reply with it pairs that address (and no other); a button is a
// signed link that opens the page with its option chosen, where opening records nothing and
// one more tap records it.

import { afterEach, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { listJobs } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { bridgeMetaKey } from "../../src/slot/door.ts";
import { cleanupBoxes, cliEnv, makeBox, runCli, selectCard } from "../support/box.ts";
import { useMailServers } from "../support/dovecot.ts";
import { BOXHOLDER, FROM, openEmailHarness, STRANGER } from "../support/email.ts";
import { formTokenIn, postForm, resolvedIn, webFixture } from "../web/web-support.ts";

const servers = useMailServers();
afterEach(cleanupBoxes);

describe("pairing an address by a code sent there", () => {
  it("pair --email sends a code; the reply with it pairs that address and the waiting question is e-mailed", async () => {
    const box = await makeBox();
    const h = await openEmailHarness(servers(), { box, owner: null });
    const { id } = await askQuestion(box, selectCard());
    const pair = await runCli(["pair", "--email", BOXHOLDER], {
      env: cliEnv(box.dir, {
        QBRIDGE_EMAIL_IMAP_URL: h.mailbox.url,
        QBRIDGE_EMAIL_SMTP_URL: servers().outbox.url,
        QBRIDGE_EMAIL_FROM: FROM,
      }),
    });
    expect(pair.stderr).toBe("");
    expect(pair.stdout).toContain(`Sent the code to ${BOXHOLDER}`);
    const code = /Pairing code: (\S+)/.exec(pair.stdout)?.[1] as string;
    const codeMail = h.lastTo();
    expect(codeMail.mail.text).toContain(code);
    await h.reply(codeMail, code);
    expect(h.slot.owners.get("email")?.userId).toBe(BOXHOLDER);
    const texts = h.sent().map((s) => s.mail.text ?? "");
    expect(texts.some((t) => t.startsWith("Paired"))).toBe(true);
    expect(h.lastTo().mail.subject).toBe("Where do photographed receipts belong?");
    expect(h.slot.current()?.questionId).toBe(id);
    await h.stop();
  });

  it("the code sent back from another address pairs nobody", async () => {
    const box = await makeBox();
    const h = await openEmailHarness(servers(), { box, owner: null });
    const { sendCode } = await import("../../bridges/email/pair-send.ts");
    const { emailSettings } = await import("../../bridges/email/settings.ts");
    const settings = emailSettings.parse({
      QBRIDGE_EMAIL_IMAP_URL: h.mailbox.url,
      QBRIDGE_EMAIL_SMTP_URL: servers().outbox.url,
      QBRIDGE_EMAIL_FROM: FROM,
    });
    if (!settings.on) throw new Error("settings off");
    const { code } = h.slot.owners.newPairingCode("email", box.box.clock.now());
    const remember = (key: string, value: string) =>
      box.ledger.setMeta(bridgeMetaKey("email", key), value);
    await sendCode(settings, code, BOXHOLDER, remember);
    await h.reply(h.lastTo(), code, { from: STRANGER });
    expect(h.slot.owners.get("email")).toBeUndefined();
    expect(box.ledger.auditFor().at(-1)).toMatchObject({
      actor: STRANGER,
      outcome: "refused:stranger",
    });
    await h.stop();
  });
});

describe("the e-mail's buttons", () => {
  it("a button opens the page with its option chosen, records nothing until the form is sent, then one answer", async () => {
    const web = await webFixture();
    const h = await openEmailHarness(servers(), {
      box: web.box,
      link: (qid) => `http://127.0.0.1:8787${web.link(qid)}`,
    });
    const { id, mail } = await h.present(selectCard());
    const href = /href="([^"]+pick=taxes)"/.exec(mail.mail.html || "")?.[1] as string;
    expect(href).toBeDefined();
    const path = resolvedIn("/", href);
    const page = await (await web.app.request(path)).text();
    expect(page).toMatch(/value="taxes" required checked/);
    expect(page).toContain("You chose “Taxes”");
    // A scanner opening every link records nothing.
    for (const link of (mail.mail.html || "").match(/href="[^"]+"/g) ?? []) {
      await web.app.request(resolvedIn("/", link.slice(6, -1)));
    }
    expect(loadQuestion(web.box, id).card.status).toBe("pending");
    const shown = /name="shown" value="([^"]+)"/.exec(page)?.[1] as string;
    const sent = await postForm(web.app, path, {
      form: formTokenIn(page),
      action: "answer",
      shown,
      choice: "taxes",
    });
    expect(sent.status).toBe(303);
    expect(loadQuestion(web.box, id).card).toMatchObject({
      status: "answered",
      "answered-via": "web",
    });
    expect(listJobs(web.box)).toHaveLength(1);
    await h.stop();
  });
});
