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
