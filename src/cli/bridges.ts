// The bridge list: every surface `qbridge serve` can run, one line each in bridge-list.ts.
// Adding a bridge is its folder under bridges/ (its plug, a plain object) and that one line
// (docs/BRIDGES.md). Each definition is cheap to load: it reads its settings with zod and loads
// its network library only when it starts.

import {
  type BridgeDefinition,
  type BridgeHelp,
  type BridgePlug,
  defineBridge,
} from "../slot/bridge.ts";
import * as listed from "./bridge-list.ts";

/** The bridges a list module exports (each line a plug), in the order of their names. */
export function bridgesOf(list: object): BridgeDefinition[] {
  return Object.values(list).map((plug: BridgePlug<unknown>) => defineBridge(plug));
}

export const BRIDGES: readonly BridgeDefinition[] = bridgesOf(listed);

/** One item per listed bridge ("- Telegram: ..."), wrapped at 96 columns, for serve's and doctor's --help. */
export function bridgeHelp(pick: (help: BridgeHelp) => string): string {
  return BRIDGES.map((bridge) => {
    const lines = [""];
    for (const word of `- ${pick(bridge.help)}`.split(" ")) {
      const last = lines.length - 1;
      if (lines[last] && `${lines[last]} ${word}`.length > 96) lines.push(`  ${word}`);
      else lines[last] = lines[last] ? `${lines[last]} ${word}` : word;
    }
    return lines.join("\n");
  }).join("\n");
}
