// How long a hook process may wait for the boxholder: until the agent ends it (a signal: the
// person answered at the computer, the agent was interrupted or gave up), until the agent is
// gone (the hook's parent changed: it was reparented), or until just before the agent's own
// hook timeout would end it. Whichever comes first aborts the signal with its reason, so the
// hook withdraws its question and nothing is applied later.

export type HookEnd = "signal" | "parent-gone" | "timeout";

export interface HookLifetime {
  signal: AbortSignal;
  /** Why it ended; undefined while it lasts. */
  ended(): HookEnd | undefined;
  dispose(): void;
}

const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
/** How often the parent is looked at. */
const PARENT_CHECK_MS = 500;

/** Seconds before the agent's timeout at which the hook gives up itself (to withdraw first). */
export function marginSeconds(timeoutSeconds: number): number {
  return Math.min(5, Math.max(1, Math.floor(timeoutSeconds / 10)));
}

export function hookLifetime(timeoutSeconds: number): HookLifetime {
  const controller = new AbortController();
  let why: HookEnd | undefined;
  const end = (reason: HookEnd) => {
    if (why) return;
    why = reason;
    controller.abort(reason);
  };
  const onSignal = () => end("signal");
  // `on`, not `once`: proper-lockfile's exit hook re-raises a signal it finds no other listener
  // for, which would kill the process in the middle of its withdrawal.
  for (const name of SIGNALS) process.on(name, onSignal);
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) end("parent-gone");
  }, PARENT_CHECK_MS);
  watch.unref();
  const waitMs = Math.max(1, timeoutSeconds - marginSeconds(timeoutSeconds)) * 1000;
  const deadline = setTimeout(() => end("timeout"), waitMs);
  deadline.unref();
  return {
    signal: controller.signal,
    ended: () => why,
    dispose() {
      clearInterval(watch);
      clearTimeout(deadline);
      for (const name of SIGNALS) process.off(name, onSignal);
    },
  };
}
