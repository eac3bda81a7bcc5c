// The named steps of a box write, announced on a diagnostics channel. Nothing in the product
// listens, and no setting or variable can make it: a test that wants a process to die at a
// step loads its own listener into that process (`node --import`, see test/support/crash-at.mjs).
// With no listener an announcement costs one check.

import { channel } from "node:diagnostics_channel";

/** The diagnostics channel a box write announces its steps on. */
export const WRITE_STEP_CHANNEL = "qbridge:write-step";

export interface WriteStep {
  /** The step's name (a CrashPoint of src/box/commit.ts). */
  point: string;
  /** The box being written. */
  box: string;
}

const steps = channel(WRITE_STEP_CHANNEL);

/** Tells whoever listens (in tests only) that a write of `box` reached `point`. */
export function announceStep(box: string, point: string): void {
  if (steps.hasSubscribers) steps.publish({ point, box } satisfies WriteStep);
}
