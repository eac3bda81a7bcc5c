// What every operation works on: the box (source of truth) and the ledger (what was done).

import type { Box } from "../box/box.ts";
import type { Committed } from "../box/commit.ts";
import type { Ledger } from "../ledger/ledger.ts";

export interface Core {
  box: Box;
  ledger: Ledger;
  /**
   * Set when answer webhooks are on (a signing secret is configured): each transition is then
   * owed to `url` as well as to the question's own `callback` (src/webhooks/).
   */
  webhooks?: { url: string | undefined } | undefined;
  /**
   * What a committed transition owes the adapters (the answer webhooks' outbox), run inside
   * the transition's commit step. Passed by the composition root (service.ts, cli/context.ts):
   * the core never imports an adapter.
   */
  owe?: ((core: Core) => Committed) | undefined;
}
