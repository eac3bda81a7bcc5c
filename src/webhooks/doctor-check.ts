// `qbridge doctor`: answer webhooks that gave up (no 2xx within the window, or a receiver the
// send-time check refused). Each is listed with its receiver (masked) and last error; --repair
// owes it once more, for a new window.

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
