// `qbridge pair --email ADDRESS`, the sending half: the code goes to ADDRESS in one e-mail,
// and the ledger keeps that this e-mail (its Message-ID) went to ADDRESS, so the service pairs
// only a reply to it from there (pairing.ts). Loaded only by `qbridge pair`.

import { InvalidInput } from "../../src/errors.ts";
import { PAIRING_LIFETIME_MS } from "../../src/slot/port.ts";
import { createSender } from "./outgoing.ts";
import { pairingKey, sendPairingCode } from "./pairing.ts";
import { addressOf, type EmailSettings } from "./settings.ts";

export async function sendCode(
  settings: Extract<EmailSettings, { on: true }>,
  code: string,
  to: string,
  remember: (key: string, value: string) => void,
): Promise<string> {
  const address = addressOf(to);
  if (!address) {
    throw new InvalidInput(
      `--email must be an e-mail address such as you@example.org, not "${to}"`,
    );
  }
  const sender = createSender(settings);
  try {
    const messageId = await sendPairingCode(sender, code, address, PAIRING_LIFETIME_MS / 60_000);
    remember(pairingKey(messageId), address);
    return `Sent the code to ${address}`;
  } finally {
    sender.close();
  }
}
