// The one clock. A frozen time (QBRIDGE_TIME) makes every time-dependent test exact.

export interface Clock {
  now(): Date;
  /** Now as ISO text with an offset (UTC, `Z`), to the second. */
  iso(): string;
}

export function createClock(frozen?: string): Clock {
  const fixed = frozen ? new Date(frozen) : undefined;
  if (fixed && Number.isNaN(fixed.getTime())) {
    throw new Error(`QBRIDGE_TIME "${frozen}" is not an ISO time; use e.g. 2026-07-10T09:00:00Z`);
  }
  const now = () => (fixed ? new Date(fixed) : new Date());
  return { now, iso: () => toIso(now()) };
}

export function toIso(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
