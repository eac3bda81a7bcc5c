// Time arithmetic for the stats: hours of day and dates in the box's time zone, and
// nearest-rank percentiles. Pure; the caller passes the zone and the instants.

/** The formats the stats need, by name: a zone is added when one is made. */
const FORMATS = {
  hour: ["en-GB", { hour: "2-digit", hourCycle: "h23" }],
  date: ["en-CA", { year: "numeric", month: "2-digit", day: "2-digit" }],
  day: ["en-GB", { day: "numeric", month: "short" }],
} as const satisfies Record<string, readonly [string, Intl.DateTimeFormatOptions]>;

/**
 * One formatter per format and zone, made once: building an Intl.DateTimeFormat costs far
 * more than using one (tens of microseconds and native memory each), and the stats use one
 * for every card.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(format: keyof typeof FORMATS, timeZone: string): Intl.DateTimeFormat {
  const key = `${format} ${timeZone}`;
  let made = formatters.get(key);
  if (!made) {
    const [locale, options] = FORMATS[format];
    made = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formatters.set(key, made);
  }
  return made;
}

/** The hour of day (0-23) of `at` in `timeZone`. */
export function hourIn(at: Date, timeZone: string): number {
  const text = formatter("hour", timeZone)
    .formatToParts(at)
    .find((p) => p.type === "hour")?.value;
  return Number(text ?? "0") % 24;
}

/** The calendar date (YYYY-MM-DD) of `at` in `timeZone`. */
export function dateIn(at: Date, timeZone: string): string {
  const parts = formatter("date", timeZone).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** A short day for people ("2 Oct") in `timeZone`. */
export function shortDay(at: Date, timeZone: string): string {
  return formatter("day", timeZone).format(at);
}

/**
 * The nearest-rank percentile: the smallest value with at least `p`% of the values at or below
 * it. Always one of the values (no interpolation), so a fixture's numbers can be checked exactly.
 */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? null;
}

export function ascending(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** "4m", "2h 5m", "3d 4h": a duration in seconds for a table cell. */
export function spoken(seconds: number | null): string {
  if (seconds === null) return "-";
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours}h ${minutes % 60}m` : `${hours}h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days}d ${hours % 24}h` : `${days}d`;
}
