// The one backoff rule: how long to wait before trying again, and the one pause until a time.
// Pure arithmetic, no timers, so every caller's pauses are computed the same way and tested
// here once.

export interface Backoff {
  /** The pause before the first retry (ms). */
  firstMs: number;
  /** No pause is longer than this (ms), before jitter. */
  maxMs: number;
  /** "double" (the default) doubles each pause; "add" adds `firstMs` each time. */
  growth?: "double" | "add";
  /** Up to this much (ms) is added at random after the cap, so waiters do not move in step. */
  jitterMs?: number;
}

/** The pause before retry `retry` (0 for the first retry). */
export function backoffDelay(
  retry: number,
  backoff: Backoff,
  random: () => number = Math.random,
): number {
  const n = Math.max(0, retry);
  const grown = backoff.growth === "add" ? backoff.firstMs * (n + 1) : backoff.firstMs * 2 ** n;
  const capped = Math.min(grown, backoff.maxMs);
  return backoff.jitterMs ? capped + random() * backoff.jitterMs : capped;
}

/** The pause after `previousMs` (none: the first pause), for callers that keep the last pause. */
export function nextBackoff(previousMs: number | undefined, backoff: Backoff): number {
  if (previousMs === undefined) return backoff.firstMs;
  const grown = backoff.growth === "add" ? previousMs + backoff.firstMs : previousMs * 2;
  return Math.min(grown, backoff.maxMs);
}

/**
 * The pause from `nowMs` until `atMs`, never less than `leastMs`: a timer set from a computed
 * time is never zero or less (node fires those at once, and a caller that re-plans on firing
 * would spin).
 */
export function pauseUntil(atMs: number, nowMs: number, leastMs = 1_000): number {
  return Math.max(leastMs, atMs - nowMs);
}
