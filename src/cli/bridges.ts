// The bridge list: every surface `qbridge serve` can run, each one line. Adding a bridge is its
// folder under bridges/ (its plug, a plain object) and one line here (docs/BRIDGES.md). Each definition is cheap to load:
// it reads its settings with zod and loads its network library only when it starts.

import { email } from "../../bridges/email/bridge.ts";
import { telegram } from "../../bridges/telegram/bridge.ts";
import { type BridgeDefinition, type BridgeHelp, defineBridge } from "../slot/bridge.ts";

export const BRIDGES: readonly BridgeDefinition[] = [defineBridge(telegram), defineBridge(email)];

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
