// ISO-8601 durations (P30D, PT12H, P1W, P1Y2M3DT4H5M6S) as milliseconds.
// Years count as 365 days and months as 30: aging needs a fixed length, not a calendar.

const PATTERN =
  /^P(?!$)(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?=\d)(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const UNITS = [365 * DAY, 30 * DAY, 7 * DAY, DAY, HOUR, 60_000, 1000];

/** Milliseconds in an ISO-8601 duration, or undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  const match = PATTERN.exec(text.trim().toUpperCase());
  if (!match) return undefined;
  let total = 0;
  for (let i = 0; i < UNITS.length; i++) {
    const part = match[i + 1];
    if (part !== undefined) total += Number(part) * (UNITS[i] as number);
  }
  return total;
}

export const DAY_MS = DAY;

/** Milliseconds as an ISO-8601 duration in days and time ("P35D", "P30DT12H", "PT90M" reads "PT1H30M"). */
export function formatDuration(ms: number): string {
  let seconds = Math.max(0, Math.round(ms / 1000));
  const days = Math.floor(seconds / 86_400);
  seconds -= days * 86_400;
  const hours = Math.floor(seconds / 3_600);
  seconds -= hours * 3_600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  const time = `${hours ? `${hours}H` : ""}${minutes ? `${minutes}M` : ""}${seconds ? `${seconds}S` : ""}`;
  if (!days && !time) return "PT0S";
  return `P${days ? `${days}D` : ""}${time ? `T${time}` : ""}`;
}

/**
 * A length of time a person types: an ISO-8601 duration (P7D, PT12H) or a number and a unit
 * (90m, 12h, 5d, 2w); undefined when the text is neither.
 */
export function parseTypedDuration(text: string): number | undefined {
  const short = /^\s*(\d{1,6})\s*(m|min|h|d|w)\s*$/i.exec(text);
  if (short) {
    const unit = { m: 60_000, min: 60_000, h: HOUR, d: DAY, w: 7 * DAY }[
      (short[2] as string).toLowerCase() as "m" | "min" | "h" | "d" | "w"
    ];
    return Number(short[1]) * unit;
  }
  return parseDuration(text);
}
