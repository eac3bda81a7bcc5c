// `qbridge doctor`: answer webhooks that gave up (no 2xx within the window, or a receiver the
// send-time check refused). Each is listed with its receiver (masked) and last error; --repair
// owes it once more, for a new window. And a box-wide receiver (QBRIDGE_WEBHOOK_URL) that every
// send would refuse is named with the fix before any outcome is lost to it.

import { refusedReceiver, webhookAllowList } from "../card/callback-address.ts";
import { maskUrl } from "../card/mask-url.ts";
import type { DoctorCheck } from "../questions/doctor/doctor.ts";
import type { Delivery } from "./outbox.ts";
import { givenUpDeliveries, retryGivenUp } from "./outbox.ts";

function problem(d: Delivery): string {
  const to = `the outcome ${d.key} was not delivered to ${maskUrl(d.url)}`;
  if (d.tries === 0 && d.lastError?.startsWith("refused: ")) {
    return `${to}: ${d.lastError.slice("refused: ".length)}, so it was refused at ${d.gaveUpAt} without a try`;
  }
  return `${to}: ${d.tries} tries from ${d.createdAt} to ${d.gaveUpAt}, the last one: ${d.lastError ?? "no error recorded"}`;
}

export const givenUpWebhooksCheck: DoctorCheck = {
  label: "webhooks",
  async examine(core) {
    const gaveUp = givenUpDeliveries(core.ledger);
    if (gaveUp.length === 0) return { findings: [], facts: ["webhooks: none gave up"] };
    return {
      facts: [],
      findings: gaveUp.map((d) => ({
        kind: "webhook" as const,
        path: `.qbridge/ledger.sqlite (webhook delivery ${d.seq})`,
        problem: problem(d),
        fix: "qbridge doctor --repair tries it again for a new window once the receiver answers 2xx, or once QBRIDGE_WEBHOOK_ALLOW names a refused host where qbridge serve runs (the outcome is always readable with qbridge show ID --json)",
        repairable: true,
        apply: () => retryGivenUp(core.ledger, d.seq, core.box.clock.iso(), Date.now()),
      })),
    };
  },
};

/** QBRIDGE_WEBHOOK_URL when the callback rule refuses it: every send to it would be refused. */
export function boxReceiverCheck(url: string | undefined): DoctorCheck {
  return {
    label: "webhook receiver",
    async examine() {
      if (url === undefined) return { findings: [], facts: [] };
      const refused = refusedReceiver(url, webhookAllowList());
      if (refused === undefined) {
        return { findings: [], facts: [`webhooks: every outcome goes to ${maskUrl(url)}`] };
      }
      return {
        facts: [],
        findings: [
          {
            kind: "webhook" as const,
            path: "QBRIDGE_WEBHOOK_URL",
            problem: `QBRIDGE_WEBHOOK_URL ${maskUrl(url)} is refused at every send: ${refused}`,
            fix: "point QBRIDGE_WEBHOOK_URL at a receiver outside this machine and its private networks, or, if that receiver is meant, name its host in QBRIDGE_WEBHOOK_ALLOW where qbridge serve runs",
            repairable: false,
          },
        ],
      };
    },
  };
}
