// How a hook files its question: only when somebody can be reached (a process presents
// questions for this box: src/slot/presence.ts), never once its life has ended, and under its
// lease (src/slot/hook-lease.ts), so the running service withdraws the question should the
// hook be killed before it can. When nobody can be reached, nothing is filed: the hook says so
// in one line on stderr and decides nothing, and the agent asks at its own prompt.

import type { Core } from "../questions/core.ts";
import { type HookLease, takeHookLease } from "../slot/hook-lease.ts";
import { reachableSurfaces } from "../slot/presence.ts";
import type { HookLifetime } from "./lifetime.ts";

export interface Filed {
  id: string;
  lease: HookLease;
}

/** What a hook files with: `meanwhile` runs while git commits the question. */
export type FileQuestion = (
  meanwhile: (filed: { id: string }) => void,
) => Promise<{ id: string; deduplicated: boolean }>;

/** The line a hook writes on stderr when nobody would see its question. */
export function nobodyReachedLine(core: Core, agent: string): string {
  const root = core.box.paths.root;
  return `qbridge: nobody can be reached for the box ${root}: no "qbridge serve" with a paired bridge and no "qbridge chat" runs for it, so nothing was filed and ${agent} asks at its own prompt; start "qbridge serve --box ${root}" for questions to reach your phone\n`;
}

/**
 * Files the question under the hook's lease; undefined, with nothing filed, when nobody can be
 * reached (after `tell` got the line) or the hook's life ended first.
 */
export async function fileUnderLease(
  core: Core,
  lifetime: HookLifetime,
  agent: string,
  file: FileQuestion,
  tell: (line: string) => void,
): Promise<Filed | undefined> {
  if (lifetime.ended()) return undefined;
  const { locksDir } = core.box.paths;
  if (reachableSurfaces(locksDir).length === 0) {
    tell(nobodyReachedLine(core, agent));
    return undefined;
  }
  // A lost lease makes the service withdraw the question: the hook then reads the withdrawal.
  const lease = await takeHookLease(locksDir, () => undefined);
  if (lifetime.ended()) {
    await lease.release();
    return undefined;
  }
  const { id, deduplicated } = await file(({ id: filed }) => lease.waitsOn(filed));
  if (deduplicated) lease.waitsOn(id);
  return { id, lease };
}
