// Before a command lists questions or jobs: writes a killed process left half done are finished
// or undone first (settleBeforeListing). The check is here, before the import: the usual
// listing, with no journal, loads no lock and no git. The transition module is imported by
// itself, not through box-changes.ts: the lean bundle of the short commands (short.ts) holds
// only what they may run.

import type { Core } from "../questions/core.ts";
import { anyWriteInFlight } from "../questions/store.ts";

export async function settleBeforeListing(core: Core): Promise<void> {
  if (!anyWriteInFlight(core)) return;
  const { settleBeforeListing: settle } = await import("../questions/transition.ts");
  await settle(core);
}
