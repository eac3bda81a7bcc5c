// What every operation works on: the box (source of truth) and the ledger (what was done).

import type { Box } from "../box/box.ts";
import type { Ledger } from "../ledger/ledger.ts";

export interface Core {
  box: Box;
  ledger: Ledger;
  /**
   * Set when answer webhooks are on (a signing secret is configured): each transition is then
   * owed to `url` as well as to the question's own `callback` (src/webhooks/).
   */
  webhooks?: { url: string | undefined } | undefined;
}
