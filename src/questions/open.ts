// Opening the core for a configured box: the box, its clock and locks, and the ledger.

import { openBox } from "../box/box.ts";
import { createClock } from "../box/clock.ts";
import type { Config } from "../config.ts";
import { Ledger } from "../ledger/ledger.ts";
import type { Core } from "./core.ts";

/** `lasting`: a process that runs for long (serve), see BoxOptions. */
export function openCore(
  config: Config,
  options: { lasting?: boolean } = {},
): Core & {
  close(): void;
} {
  const box = openBox(config.boxDir, {
    clock: createClock(config.time),
    locks: { staleMs: config.lockStaleMs },
    lasting: options.lasting,
  });
  const webhooks = config.webhooks.secret ? { url: config.webhooks.url } : undefined;
  // Opened on first use: a command that only reads a card (show, wait) never opens it.
  let ledger: Ledger | undefined;
  return {
    box,
    get ledger() {
      ledger ??= new Ledger(box.paths.ledgerPath);
      return ledger;
    },
    webhooks,
    close() {
      ledger?.close();
    },
  };
}
