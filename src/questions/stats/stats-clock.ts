// Time arithmetic for the stats and the slot: hours of day and dates in the box's time zone,
// and nearest-rank percentiles. Pure; the caller passes the zone and the instants.

/**
 * Where hours and dates are read: an IANA zone name, or undefined for the process's own zone
 * (as Intl takes `timeZone: undefined`). The own zone is read through Date's local getters,
 * which take only ICU's rules for that zone: Intl's date formats, and the zone's name (Intl
 * too), must not be started just to show an hour or a day in the own zone.
 */
export type Zone = string | undefined;

/** What knows the box's zone: the settings, or the slot's attention. Its name is read only
 * when the zone is not the process's own. */
export interface ZoneSource {
  readonly timeZone: string;
  readonly ownZone?: boolean | undefined;
}

export function zoneOf(source: string | ZoneSource): Zone {
  if (typeof source === "string") return source;
  return source.ownZone ? undefined : source.timeZone;
}

/** The month's short name, the same whichever way the date was read (not ICU's, which varies). */
const MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec".split(" ");

/** The formats the stats need, by name: a zone is added when one is made. */
const FORMATS = {
  hour: ["en-GB", { hour: "2-digit", hourCycle: "h23" }],
  date: ["en-CA", { year: "numeric", month: "2-digit", day: "2-digit" }],
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

/** The hour of day (0-23) of `at` in `zone`. */
export function hourIn(at: Date, zone: Zone): number {
  if (zone === undefined) return at.getHours();
  // The hour alone is all the format writes ("09"): read whole, never through formatToParts,
  // which makes an object per part for every answered card.
  return Number(formatter("hour", zone).format(at)) % 24;
}

/** The calendar date (YYYY-MM-DD) of `at` in `zone`. */
export function dateIn(at: Date, zone: Zone): string {
  if (zone === undefined) {
    const two = (n: number) => String(n).padStart(2, "0");
    return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}`;
  }
  const parts = formatter("date", zone).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** A short day for people ("2 Oct") in `zone`. */
export function shortDay(at: Date, zone: Zone): string {
  const [, month, day] = dateIn(at, zone).split("-").map(Number);
  return `${day} ${MONTHS[(month ?? 1) - 1]}`;
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
