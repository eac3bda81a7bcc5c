// Quiet hours (QBRIDGE_QUIET_HOURS=22:00-07:30, in the box's time zone): when they hold, when
// they end, and the stretch of night that ended last. Pure time arithmetic; what the slot does
// with it is decided in attention.ts.

import { atLocal, clockText, localDate } from "./wall-clock.ts";

export interface QuietHours {
  /** Minutes since local midnight when quiet starts. */
  from: number;
  /** Minutes since local midnight when quiet ends (earlier than `from` when it spans midnight). */
  to: number;
}

const RANGE = /^([01]?\d|2[0-3]):([0-5]\d)-([01]?\d|2[0-3]):([0-5]\d)$/;

/** Reads "22:00-07:30"; undefined when the text is not two different HH:MM times. */
export function parseQuietHours(text: string): QuietHours | undefined {
  const m = RANGE.exec(text.replace(/\s+/g, ""));
  if (!m) return undefined;
  const from = Number(m[1]) * 60 + Number(m[2]);
  const to = Number(m[3]) * 60 + Number(m[4]);
  return from === to ? undefined : { from, to };
}

export function quietHoursText(quiet: QuietHours): string {
  return `${clockText(quiet.from)}-${clockText(quiet.to)}`;
}

function isQuietMinute(minute: number, quiet: QuietHours): boolean {
  return quiet.from < quiet.to
    ? minute >= quiet.from && minute < quiet.to
    : minute >= quiet.from || minute < quiet.to;
}

/** When the quiet hours that hold at `now` end; undefined when they do not hold. */
export function quietUntil(now: Date, quiet: QuietHours, timeZone: string): Date | undefined {
  const local = localDate(now, timeZone);
  if (!isQuietMinute(local.minute, quiet)) return undefined;
  // Past `to` today means the quiet started this evening and ends tomorrow.
  const tomorrow = local.minute >= quiet.to ? 1 : 0;
  return atLocal(local, quiet.to, timeZone, tomorrow);
}

/** The last quiet stretch that has ended by `now` (outside quiet hours: the night just past). */
export function lastQuiet(
  now: Date,
  quiet: QuietHours,
  timeZone: string,
): { start: Date; end: Date } {
  const local = localDate(now, timeZone);
  const endDay = local.minute >= quiet.to ? 0 : -1;
  const startDay = quiet.from < quiet.to ? endDay : endDay - 1;
  return {
    start: atLocal(local, quiet.from, timeZone, startDay),
    end: atLocal(local, quiet.to, timeZone, endDay),
  };
}
