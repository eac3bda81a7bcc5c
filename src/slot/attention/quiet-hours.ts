// Quiet hours (QBRIDGE_QUIET_HOURS=22:00-07:30, in the box's time zone): when they hold, when
// they end, and the stretch of night that ended last. Pure time arithmetic; what the slot does
// with it is decided in attention.ts.

import { atLocal, clockText, localDate, offsetChange, offsetMs } from "./wall-clock.ts";

const DAY_MS = 86_400_000;

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

/**
 * When the quiet hours that hold at `now` end: the first instant after `now` at which local time
 * is outside them. Always later than `now`; undefined when they do not hold. A daylight-saving
 * jump past their end ends them at the jump; an hour the clocks repeat is quiet again.
 */
export function quietUntil(now: Date, quiet: QuietHours, timeZone: string): Date | undefined {
  if (!isQuietMinute(localDate(now, timeZone).minute, quiet)) return undefined;
  let at = now.getTime();
  // Each step follows one stretch of unchanged offset; a day holds at most one change, so a
  // few steps reach the end of any window.
  for (let step = 0; step < 4; step++) {
    const offset = offsetMs(new Date(at), timeZone);
    const wall = (((at + offset) % DAY_MS) + DAY_MS) % DAY_MS;
    const toEnd = (quiet.to * 60_000 - wall + DAY_MS) % DAY_MS || DAY_MS;
    const jump = offsetChange(at, at + toEnd, offset, timeZone);
    if (jump === undefined) return new Date(at + toEnd);
    if (!isQuietMinute(localDate(new Date(jump), timeZone).minute, quiet)) return new Date(jump);
    at = jump;
  }
  return new Date(at);
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
  const start = atLocal(local, quiet.from, timeZone, startDay);
  // The night ended where the slot saw it end: at the first instant after its start outside it.
  const end = quietUntil(start, quiet, timeZone) ?? atLocal(local, quiet.to, timeZone, endDay);
  return { start, end };
}
