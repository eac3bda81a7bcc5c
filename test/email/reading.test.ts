// The e-mail bridge's pure parts, with no server: its settings' sentences, what a reply says
// (its first line with quotes and signature stripped, its ties, the receiving server's verdict),
// and the question's e-mail (escaped card text, one button per option, "reply with a letter").

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import MailComposer from "nodemailer/lib/mail-composer";
import { describe, expect, it } from "vitest";
import { authenticationFailure } from "../../bridges/email/auth-results.ts";
import { questionLetter } from "../../bridges/email/compose.ts";
import { readReply } from "../../bridges/email/reply.ts";
import { emailSettings } from "../../bridges/email/settings.ts";
import { QuestionSchema } from "../../src/card/question.ts";
import { scratchDir, selectCard } from "../support/box.ts";

const ON = {
  QBRIDGE_EMAIL_IMAP_URL: "imaps://q%40example.org:pa%3Ass@imap.example.org/Replies",
  QBRIDGE_EMAIL_SMTP_URL: "smtp://mail.example.org",
  QBRIDGE_EMAIL_FROM: "question-bridge <Q@Example.org>",
};

const problems = (env: Record<string, string>) => {
  const parsed = emailSettings.safeParse(env);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

describe("the e-mail settings", () => {
  it("read the servers, the mailbox and the sender from the URLs", () => {
    expect(emailSettings.parse(ON)).toMatchObject({
      on: true,
      imap: {
        secure: true,
        host: "imap.example.org",
        port: 993,
        user: "q@example.org",
        password: "pa:ss",
        mailbox: "Replies",
      },
      smtp: { secure: false, host: "mail.example.org", port: 587, user: undefined },
      fromAddress: "q@example.org",
      secondAfterMs: 30 * 60_000,
    });
  });

  it("are off with none set, and name what is missing when only some are", () => {
    expect(emailSettings.parse({})).toMatchObject({ on: false });
    expect(problems({ QBRIDGE_EMAIL_IMAP_URL: ON.QBRIDGE_EMAIL_IMAP_URL })).toEqual([
      "QBRIDGE_EMAIL_IMAP_URL, QBRIDGE_EMAIL_SMTP_URL and QBRIDGE_EMAIL_FROM go together: set all three to turn e-mail on, or none",
    ]);
  });

  it("name the variable of a wrong scheme, a bad duration or a bad sender, never its value", () => {
    const said = problems({
      ...ON,
      QBRIDGE_EMAIL_IMAP_URL: "https://user:hunter2@imap.example.org",
      QBRIDGE_EMAIL_SECOND_AFTER: "soon",
      QBRIDGE_EMAIL_FROM: "nobody",
    });
    expect(said).toHaveLength(3);
    expect(said.join(" ")).not.toContain("hunter2");
    expect(said[0]).toMatch(/^QBRIDGE_EMAIL_FROM/);
    expect(
      said.some((s) => s.startsWith("QBRIDGE_EMAIL_IMAP_URL must start with imap:// or imaps://")),
    ).toBe(true);
    expect(
      said.some((s) => s.startsWith("QBRIDGE_EMAIL_SECOND_AFTER must be an ISO-8601 duration")),
    ).toBe(true);
  });

  it("take a password from a file, and refuse one given twice", () => {
    const file = join(scratchDir("qbridge-pw-"), "smtp");
    writeFileSync(file, "from-file\n");
    const settings = emailSettings.parse({ ...ON, QBRIDGE_EMAIL_SMTP_PASSWORD_FILE: file });
    expect(settings.on && settings.smtp.password).toBe("from-file");
    expect(problems({ ...ON, QBRIDGE_EMAIL_IMAP_PASSWORD_FILE: file })).toEqual([
      "QBRIDGE_EMAIL_IMAP_URL carries a password and QBRIDGE_EMAIL_IMAP_PASSWORD_FILE is set too: keep one of them",
    ]);
    expect(problems({ ...ON, QBRIDGE_EMAIL_SMTP_PASSWORD_FILE: `${file}.missing` })[0]).toMatch(
      /^QBRIDGE_EMAIL_SMTP_PASSWORD_FILE cannot be read \(ENOENT\)/,
    );
  });
});

async function raw(options: ConstructorParameters<typeof MailComposer>[0]) {
  return new MailComposer({ from: "You <You@Home.test>", to: "q@bridge.test", ...options })
    .compile()
    .build();
}

describe("a reply as the bridge reads it", () => {
  it("its first line, with the quoted e-mail and the signature stripped", async () => {
    const reply = await readReply(
      await raw({
        subject: "Re: Where?",
        inReplyTo: "<b@bridge.test>",
        references: ["<a@bridge.test>", "<b@bridge.test>"],
        text: "  Taxes - paper only  \nand more words\n\n-- \nSent from my phone\n\nOn Fri, question-bridge wrote:\n> a) Finance\n> b) Taxes\n",
      }),
    );
    expect(reply).toMatchObject({
      from: "you@home.test",
      firstLine: "Taxes - paper only",
      answers: ["<b@bridge.test>", "<a@bridge.test>"],
      automatic: false,
      authFailed: undefined,
    });
    expect(reply.words).not.toContain("Sent from my phone");
  });

  it("reads only the receiving server's verdict, the topmost Authentication-Results", () => {
    expect(
      authenticationFailure(["mx.home.test; dmarc=fail (p=reject) header.from=home.test"]),
    ).toBe("dmarc=fail");
    expect(authenticationFailure(["mx; spf=fail smtp.mailfrom=home.test; dkim=none"])).toBe(
      "spf=fail",
    );
    expect(
      authenticationFailure(["mx; spf=fail; dkim=fail; dkim=pass header.d=home.test"]),
    ).toBeUndefined();
    // A header the sender wrote comes below the receiving server's: it is not believed.
    expect(authenticationFailure(["mx; spf=pass", "forged; dmarc=fail"])).toBeUndefined();
    expect(authenticationFailure([])).toBeUndefined();
  });
});

describe("the question's e-mail", () => {
  const card = QuestionSchema.parse({
    ...selectCard({ prompt: "Pay <b>now</b>?", memo: "A & B <script>x</script>" }),
    "asked-at": "2026-07-10T09:00:00Z",
    status: "pending",
  });

  it("escapes every card text, has one button per option and says to reply with a letter", () => {
    const letter = questionLetter({
      card,
      behind: 2,
      now: new Date("2026-07-10T10:00:00Z"),
      link: (option) => `https://q.example.org/q/x?s=sig${option ? `&pick=${option}` : ""}`,
    });
    expect(letter.subject).toBe("Pay <b>now</b>?");
    expect(letter.html).not.toContain("<script>");
    expect(letter.html).toContain("A &amp; B &lt;script&gt;x&lt;/script&gt;");
    expect(letter.html).toContain("Pay &lt;b&gt;now&lt;/b&gt;?");
    expect(letter.html.match(/pick=/g)).toHaveLength(3);
    expect(letter.text).toContain("a) Finance");
    expect(letter.text).toContain("Reply with a letter or a label");
    expect(letter.text).toContain("2 more waiting after this one.");
  });
});
