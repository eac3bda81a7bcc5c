// The e-mail bridge as a conformance driver, on real servers: Dovecot holds the mailbox the
// boxholder's replies are delivered into, smtp-server takes what the bridge sends. A pick is a
// reply whose first line is the letter, tied to the question's e-mail; what the person was told
// is the e-mail the bridge sent back (or nothing, for a message read once already).

import type { MailServers } from "../../support/dovecot.ts";
import { type EmailHarness, openEmailHarness, STRANGER } from "../../support/email.ts";
import type { Driver, Session } from "../stories.ts";

/** The text of the e-mails sent since `count` were, joined; "" when none was. */
function saidSince(h: EmailHarness, count: number): string {
  return h
    .sent()
    .slice(count)
    .map((s) => s.mail.text ?? "")
    .join("\n");
}

export function emailDriver(servers: () => MailServers): Driver {
  return {
    surface: "email",
    async open(card) {
      const h = await openEmailHarness(servers());
      const { id, mail } = await h.present(card);
      let last: Buffer | undefined;
      const said = async (send: () => Promise<Buffer>) => {
        const count = h.sent().length;
        last = await send();
        return saidSince(h, count);
      };
      const session: Session & { h: EmailHarness } = {
        h,
        box: h.box,
        slot: h.slot,
        id,
        pick: (letter) => said(() => h.reply(mail, letter)),
        confirm: () => said(() => h.reply(h.lastTo(), "yes")),
        async again() {
          const count = h.sent().length;
          if (last) await h.deliver(last);
          return saidSince(h, count);
        },
        shown: () => saidSince(h, 0),
        close: () => h.stop(),
      };
      return session;
    },
    async stranger(session, letter) {
      const { h } = session as Session & { h: EmailHarness };
      const count = h.sent().length;
      await h.reply(
        h.sent()[0] as EmailHarness["sent"] extends () => (infer S)[] ? S : never,
        letter,
        { from: STRANGER },
      );
      return saidSince(h, count);
    },
  };
}
