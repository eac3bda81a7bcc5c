// Wall-clock time in the box's time zone: what hour it is there, and which instant a local
// time ("tomorrow at 09:00") falls on. Intl is the authority on zones and daylight saving; no
// zone table is kept here. Pure: the caller passes the instant (the box clock's now).

export interface LocalDate {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  /** 0 = Sunday ... 6 = Saturday. */
  weekday: number;
  /** Minutes since local midnight. */
  minute: number;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      weekday: "short",
      hour: "numeric",
      minute: "numeric",
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The local calendar date and time of day of an instant in a zone. */
export function localDate(at: Date, timeZone: string): LocalDate {
  const parts = Object.fromEntries(
    formatFor(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ""),
    minute: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
const OFFSET = /GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?$/;

/** How far the zone's wall clock is ahead of UTC at this instant, in ms. */
export function offsetMs(at: Date, timeZone: string): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    offsetFormats.set(timeZone, format);
  }
  const m = OFFSET.exec(format.format(at));
  if (!m?.[1]) return 0;
  const ms = (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0)) * 1000;
  return m[1] === "-" ? -ms : ms;
}

/**
 * The instant a local date and time of day fall on; `dayOffset` counts calendar days from the
 * given date. A time skipped by a daylight-saving jump lands just after the jump.
 */
export function atLocal(date: LocalDate, minute: number, timeZone: string, dayOffset = 0): Date {
  const wall = Date.UTC(date.year, date.month - 1, date.day + dayOffset, 0, minute);
  // The offset at the guess, then at the corrected guess: two steps settle every real zone.
  let at = wall - offsetMs(new Date(wall), timeZone);
  at = wall - offsetMs(new Date(at), timeZone);
  return new Date(at);
}

/**
 * The first whole minute in (`from`, `to`] at which the zone's offset is no longer `offset` (the
 * offset at `from`); undefined when it is the same at `to`. Zones change their offset on whole
 * minutes and at most once in the day this is asked about.
 */
export function offsetChange(
  from: number,
  to: number,
  offset: number,
  timeZone: string,
): number | undefined {
  if (offsetMs(new Date(to), timeZone) === offset) return undefined;
  let lo = Math.floor(from / 60_000) * 60_000;
  let hi = to;
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
    if (offsetMs(new Date(mid), timeZone) === offset) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** "HH:MM" for minutes since midnight. */
export function clockText(minute: number): string {
  const h = Math.floor(minute / 60);
  const m = minute % 60;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}
