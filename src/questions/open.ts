// Opening the core for a configured box: the box, its clock and locks, and the ledger.

import { openBox } from "../box/box.ts";
import { createClock } from "../box/clock.ts";
import type { Config } from "../config.ts";
import { Ledger } from "../ledger/ledger.ts";
import type { Core } from "./core.ts";

export function openCore(config: Config): Core {
  const box = openBox(config.boxDir, {
    clock: createClock(config.time),
    locks: { staleMs: config.lockStaleMs },
  });
  const webhooks = config.webhooks.secret ? { url: config.webhooks.url } : undefined;
  return { box, ledger: new Ledger(box.paths.ledgerPath), webhooks };
}
