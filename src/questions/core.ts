// What every operation works on: the box (source of truth) and the ledger (what was done).

import type { Box } from "../box/box.ts";
import type { Ledger } from "../ledger/ledger.ts";

export interface Core {
  box: Box;
  ledger: Ledger;
}
