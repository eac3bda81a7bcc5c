// The box-wide receiver every writer of the box owes: the QBRIDGE_WEBHOOK_URL `qbridge serve`
// (the one sender) started with, recorded in the ledger's meta so that a process without the
// variable (a CLI answer, `qbridge chat`, MCP on stdio, a cron `qbridge age`) owes it too. A
// serve started without one (or with webhooks off) clears it. The ledger is never committed, so
// a URL with a password recorded here stays out of the box's history.

import type { Ledger } from "../ledger/ledger.ts";

const KEY = "webhooks.box-receiver";

/** Records (or, with undefined, clears) the receiver every transition of the box is owed to. */
export function recordBoxReceiver(ledger: Ledger, url: string | undefined): void {
  if (url === undefined) ledger.deleteMeta(KEY);
  else ledger.setMeta(KEY, url);
}

/** The receiver the last `qbridge serve` started with, if any. */
export function recordedBoxReceiver(ledger: Ledger): string | undefined {
  return ledger.getMeta(KEY);
}
