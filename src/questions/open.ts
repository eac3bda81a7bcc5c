// Opening the core for a configured box: the box, its clock and locks, and the ledger.

import { openBox } from "../box/box.ts";
import { createClock } from "../box/clock.ts";
import { Ledger } from "../ledger/ledger.ts";
import type { Core } from "./core.ts";

/**
 * What the operator is told when this process found the ledger damaged and set it aside: the
 * fresh one has lost what only the ledger knew, and nothing else would say so.
 */
export function setAsideNotice(ledgerPath: string, setAside: string, damage?: string): string {
  const what = damage
    ? `fails SQLite's integrity check (${damage})`
    : "could not be read (damaged, not an SQLite database)";
  return `the ledger ${ledgerPath} ${what}; it was moved to ${setAside} and a fresh one started: answers go on, but Telegram buttons shown before are stale, a nudge may repeat, and a boxholder bound with qbridge pair must pair again`;
}

/** What opening the core needs of the settings (src/config.ts's Config has it all). */
export interface CoreSettings {
  boxDir: string;
  time: Parameters<typeof createClock>[0];
  lockStaleMs: number;
  webhooks: { url?: string | undefined; secret?: string | undefined };
}

/**
 * `lasting`: a process that runs for long (serve), see BoxOptions. `checkLedger`: the ledger is
 * checked by SQLite when opened, and set aside when it fails (a start of serve). `onSetAside`:
 * told once when opening the ledger set a damaged one aside (see setAsideNotice).
 */
export function openCore(
  config: CoreSettings,
  options: {
    lasting?: boolean;
    checkLedger?: boolean;
    onSetAside?: (notice: string) => void;
    owe?: Core["owe"];
  } = {},
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
      if (ledger === undefined) {
        ledger = new Ledger(box.paths.ledgerPath, { check: options.checkLedger });
        if (ledger.setAside !== undefined) {
          options.onSetAside?.(
            setAsideNotice(box.paths.ledgerPath, ledger.setAside, ledger.damage),
          );
        }
      }
      return ledger;
    },
    webhooks,
    owe: options.owe,
    close() {
      ledger?.close();
    },
  };
}
