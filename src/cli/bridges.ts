// The bridge list: every surface `qbridge serve` can run, each one line. Adding a bridge is its
// folder under bridges/ and one line here (docs/BRIDGES.md). Each definition is cheap to load:
// it reads its settings with zod and loads its network library only when it starts.

import { telegram } from "../../bridges/telegram/bridge.ts";
import type { BridgeDefinition } from "../slot/bridge.ts";

export const BRIDGES: readonly BridgeDefinition[] = [telegram];
