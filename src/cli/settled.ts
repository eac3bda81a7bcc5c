// Before a command lists questions or jobs: writes a killed process left half done are finished
// or undone first (settleBeforeListing). The check is here, before the import: the usual
// listing, with no journal, loads no lock and no git.

import type { Core } from "../questions/core.ts";
import { anyWriteInFlight } from "../questions/store.ts";

export async function settleBeforeListing(core: Core): Promise<void> {
  if (!anyWriteInFlight(core)) return;
  const { settleBeforeListing: settle } = await import("../questions/transition.ts");
  await settle(core);
}
