// The e-mail bridge as the bridge list holds it: its settings, the secrets among them, how
// `qbridge pair --email` and `qbridge doctor` speak for it. Cheap to load (every command reads
// the settings): imapflow, nodemailer and mailparser are imported only when the service creates
// the bridge, the doctor asks, or a pairing code is sent.

import type { BridgePlug } from "../../src/slot/port.ts";
import { type EmailSettings, emailSettings } from "./settings.ts";

export const email: BridgePlug<EmailSettings> = {
  // The name presenter.ts's SURFACE gives the ledger's rows (not imported: it loads nodemailer).
  surface: "email",
  // The paired address, replying to the e-mail that showed the question, is the boxholder.
  proves: "paired-address",
  help: {
    settings:
      "E-mail: QBRIDGE_EMAIL_IMAP_URL (the mailbox replies arrive in), QBRIDGE_EMAIL_SMTP_URL and QBRIDGE_EMAIL_FROM turn it on; passwords may come from QBRIDGE_EMAIL_IMAP_PASSWORD_FILE and QBRIDGE_EMAIL_SMTP_PASSWORD_FILE; with Telegram on too, QBRIDGE_EMAIL_SECOND_AFTER (default PT30M) is how long a question waits untapped there before it is e-mailed as well; QBRIDGE_EMAIL_DIGEST_AT (HH:MM) adds a daily digest of what waits.",
    doctor:
      "with QBRIDGE_EMAIL_IMAP_URL, the mailbox (IMAP login and STATUS) and the outgoing server (SMTP login)",
    pairFlag: {
      flag: "email",
      value: "address",
      description:
        "send the code to this e-mail address; reply to it with the code to pair that address",
    },
  },
  schema: emailSettings,
  on: (settings) => settings.on,
  offLine:
    "email off (set QBRIDGE_EMAIL_IMAP_URL, QBRIDGE_EMAIL_SMTP_URL and QBRIDGE_EMAIL_FROM to turn it on)",
  secrets: (settings) => (settings.on ? [settings.imap.password, settings.smtp.password] : []),
  create: async (settings, deps) => {
    if (!settings.on) throw new Error("the e-mail bridge is off: nothing to create");
    return (await import("./serve.ts")).createEmailBridge(settings, deps);
  },
  check: async (settings) => {
    if (!settings.on) throw new Error("the e-mail bridge is off: nothing to check");
    return (await import("./health.ts")).createEmailCheck(settings);
  },
  pairing: (settings) => ({
    fixedOwner: undefined,
    userName: (address) => `e-mail ${address}`,
    howToSend: (code) => `Reply to the e-mail with the code ${code} on its first line`,
    notes: settings.on
      ? []
      : [
          "the e-mail settings are not set here: the code cannot be sent; set QBRIDGE_EMAIL_* where serve runs",
        ],
    ...(settings.on
      ? {
          async deliver(code: string, to: string, remember: (key: string, value: string) => void) {
            const { sendCode } = await import("./pair-send.ts");
            return sendCode(settings, code, to, remember);
          },
        }
      : {}),
  }),
};
