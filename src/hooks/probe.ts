// The probe `qbridge hook doctor` runs each installed hook command with: a hook input of its
// own event (`QbridgeProbe`) that no agent sends. A hook that reads it files nothing and prints
// what the doctor compares: the box it asks in (its path and identity) and the surfaces that
// reach the boxholder from that box now (src/slot/presence.ts). Pure, but for reading presence.

import { boxIdentity } from "../box/identity.ts";
import type { Core } from "../questions/core.ts";
import { reachableSurfaces } from "../slot/presence.ts";

export const PROBE_EVENT = "QbridgeProbe";

/** The probe's input, as the doctor writes it on the hook command's standard input. */
export const PROBE_INPUT = JSON.stringify({ hook_event_name: PROBE_EVENT });

export interface ProbeAnswer {
  qbridge: "probe";
  box: string;
  boxId: string;
  reachable: string[];
}

/** Whether a hook's input is the doctor's probe. */
export function isProbe(text: string): boolean {
  try {
    return (JSON.parse(text) as { hook_event_name?: unknown }).hook_event_name === PROBE_EVENT;
  } catch {
    return false;
  }
}

export function probeAnswer(core: Core): ProbeAnswer {
  const root = core.box.paths.root;
  return {
    qbridge: "probe",
    box: root,
    boxId: boxIdentity(root),
    reachable: reachableSurfaces(core.box.paths.locksDir),
  };
}

/** The answer a hook command printed, when it printed the probe's. */
export function readProbeAnswer(stdout: string): ProbeAnswer | undefined {
  try {
    const value = JSON.parse(stdout.trim()) as Partial<ProbeAnswer>;
    if (value.qbridge !== "probe" || typeof value.box !== "string") return undefined;
    if (typeof value.boxId !== "string" || !Array.isArray(value.reachable)) return undefined;
    return value as ProbeAnswer;
  } catch {
    return undefined;
  }
}
