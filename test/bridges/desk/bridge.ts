// A bridge for tests, written as docs/BRIDGES.md says a bridge is: one folder, its plug here, the
// core reached only through the port. Its surface is a "desk", a chat service held in memory
// (test/support/desk-service.ts, handed in as the bridge's seams), where people tap buttons,
// type and send commands. The conformance stories run on it, and a test copies this folder out
// of the repository and adds it to a copy of the bridge list with one line.

import { z } from "zod";
import { checked } from "../../../src/config.ts";
import type { BridgePlug } from "../../../src/slot/port.ts";

export interface DeskSettings {
  /** DESK_OWNER: the account the desk's boxholder is. */
  owner: string | undefined;
}

export const desk: BridgePlug<DeskSettings> = {
  surface: "desk",
  // The owner's account, in their own chat at the desk, is the boxholder.
  proves: "paired-account",
  help: {
    settings: "Desk: DESK_OWNER turns it on and names the boxholder's account.",
    doctor: "the desk",
  },
  schema: z
    .object({
      DESK_OWNER: checked(
        (v) => /^[a-z]{1,32}$/.test(v),
        "DESK_OWNER must be an account name in small letters",
      ),
    })
    .transform((env) => ({ owner: env.DESK_OWNER })),
  on: (settings) => settings.owner !== undefined,
  offLine: "desk off (set DESK_OWNER to turn it on)",
  secrets: () => [],
  create: async (_settings, deps) => (await import("./serve.ts")).createDesk(deps),
  check: async () => ({
    label: "desk",
    examine: async () => ({ findings: [], facts: ["desk: open"] }),
  }),
  pairing: (settings) => ({
    fixedOwner: settings.owner,
    userName: (id) => `desk user ${id}`,
    howToSend: (code) => `Say "pair ${code}" at the desk`,
    notes: [],
  }),
};
