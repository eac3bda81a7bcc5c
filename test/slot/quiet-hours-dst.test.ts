// Quiet hours across every daylight-saving jump Intl knows of in 2026-2030: the end they give
// is always later than now, and it is the first instant after now at which the box's local time
// is no longer inside the window (a window that ends inside a spring-forward gap ends at the
// jump; on a fall-back night the repeated hour is quiet again, and ends at its second pass).
// The oracle reads local time from the zone's transitions found here by scanning offsets, and
// walks minute by minute: no code of the implementation is shared with it.

import { describe, expect, it } from "vitest";
import { heldUntil } from "../../src/slot/attention/attention.ts";
import {
  lastQuiet,
  parseQuietHours,
  type QuietHours,
  quietHoursText,
  quietUntil,
} from "../../src/slot/attention/quiet-hours.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const iso = (d: Date | undefined) => d?.toISOString();

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
/** The zone's offset from UTC at an instant, in ms, as Intl's "GMT+05:30" says it. */
function offsetAt(zone: string, at: number): number {
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
    offsetFormats.set(zone, format);
  }
  const m = /GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?$/.exec(format.format(at));
  if (!m) throw new Error(`no offset in ${format.format(at)} (${zone})`);
  if (!m[1]) return 0;
  const ms = (Number(m[2]) * 60 + Number(m[3])) * MINUTE + Number(m[4] ?? 0) * 1000;
  return m[1] === "-" ? -ms : ms;
}

interface Transition {
  at: number;
  before: number;
  after: number;
}

/** A zone's offset changes from `from` to `to`: weekly samples, each change found to the second. */
function transitions(zone: string, from: number, to: number): Transition[] {
  const found: Transition[] = [];
  let prev = from;
  let prevOffset = offsetAt(zone, from);
  for (let at = from + WEEK; at <= to; at += WEEK) {
    const offset = offsetAt(zone, at);
    if (offset !== prevOffset) {
      let lo = prev;
      let hi = at;
      while (hi - lo > 1000) {
        const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
        if (offsetAt(zone, mid) === prevOffset) lo = mid;
        else hi = mid;
      }
      found.push({ at: hi, before: prevOffset, after: offset });
    }
    prev = at;
    prevOffset = offset;
  }
  return found;
}

/** Local minute of the day at `at`, read from the zone's transitions. */
function localMinute(at: number, first: number, list: readonly Transition[]): number {
  let offset = first;
  for (const t of list) if (t.at <= at) offset = t.after;
  const wall = at + offset;
  return Math.floor((((wall % DAY) + DAY) % DAY) / MINUTE);
}

function inWindow(minute: number, q: QuietHours): boolean {
  return q.from < q.to ? minute >= q.from && minute < q.to : minute >= q.from || minute < q.to;
}

/** The first minute boundary after `now` where local time is outside the window. */
function oracleEnd(now: number, q: QuietHours, first: number, list: readonly Transition[]) {
  if (!inWindow(localMinute(now, first, list), q)) return undefined;
  let t = Math.floor(now / MINUTE) * MINUTE + MINUTE;
  for (let i = 0; i < 2 * 24 * 60; i++, t += MINUTE) {
    if (!inWindow(localMinute(t, first, list), q)) return t;
  }
  throw new Error("the oracle found no end within two days");
}

const mod = (m: number) => ((m % 1440) + 1440) % 1440;
/** Instants around each change (ms from it): long before, just before, at, just after, after. */
const PROBES = [
  -9 * HOUR,
  -61 * MINUTE,
  -31 * MINUTE,
  -1000,
  0,
  17_000,
  29 * MINUTE,
  61 * MINUTE,
  3 * HOUR,
];

describe("quiet hours on the nights the clocks change", () => {
  it("end after now, at the first instant local time leaves the window, in every zone 2026-2030", () => {
    const scanFrom = Date.UTC(2025, 11, 1);
    const scanTo = Date.UTC(2031, 1, 1);
    const inRange = (at: number) => at >= Date.UTC(2026, 0, 1) && at < Date.UTC(2031, 0, 1);
    const seen = new Set<string>();
    let cases = 0;
    let quietCases = 0;
    const wrongs: string[] = [];
    const zones = Intl.supportedValuesOf("timeZone");
    for (const zone of zones) {
      const list = transitions(zone, scanFrom, scanTo);
      const first = offsetAt(zone, scanFrom);
      for (const [i, t] of list.entries()) {
        if (!inRange(t.at)) continue;
        // Whole minutes: the oracle walks minute boundaries.
        if (t.at % MINUTE !== 0) wrongs.push(`${zone} changes at ${t.at}, not on a minute`);
        // Zones that change the same way at the same instant behave alike: each is tried once.
        const key = [t.at, t.before, t.after, list[i - 1]?.at, list[i + 1]?.at].join(" ");
        if (seen.has(key)) continue;
        seen.add(key);
        const wb = mod(Math.floor((t.at + t.before) / MINUTE));
        const wa = mod(Math.floor((t.at + t.after) / MINUTE));
        const lo = Math.min(wb, wa);
        const hi = Math.max(wb, wa);
        const mid = mod(lo + Math.floor((hi - lo) / 2));
        // Windows that end before, at, inside and after the skipped or repeated stretch, one
        // that starts inside it, and a long one.
        const windows: QuietHours[] = [
          { from: mid, to: mod(mid + 180) },
          { from: mod(mid - 600), to: mid },
        ];
        for (const to of [mod(lo - 30), lo, mid, hi, mod(hi + 30)]) {
          windows.push({ from: mod(to - 210), to });
        }
        for (const q of windows) {
          for (const probe of PROBES) {
            const now = t.at + probe;
            const got = quietUntil(new Date(now), q, zone)?.getTime();
            const want = oracleEnd(now, q, first, list);
            cases++;
            if (want !== undefined) quietCases++;
            // An end at or before now is wrong whatever the oracle says.
            const wrong =
              want === undefined ? got !== undefined : !(got && got > now && got === want);
            // Outside quiet hours, the night just past has ended by now.
            const past =
              want === undefined && lastQuiet(new Date(now), q, zone).end.getTime() > now;
            if (past)
              wrongs.push(`${zone} ${quietHoursText(q)} at ${now}: the last night ends later`);
            if (wrong) {
              const shown = (at: number | undefined) => at && new Date(at).toISOString();
              wrongs.push(
                `${zone} ${quietHoursText(q)} at ${shown(now)}: ${shown(got)}, not ${shown(want)}`,
              );
            }
          }
        }
      }
    }
    expect(wrongs.slice(0, 10), `${wrongs.length} of ${cases} wrong`).toEqual([]);
    expect(zones.length).toBeGreaterThan(300);
    expect(seen.size).toBeGreaterThan(50);
    expect(quietCases).toBeGreaterThan(cases / 4);
  });

  it("New York's fall-back night: at the second 01:10, quiet 22:00-01:30 ends at the second 01:30", () => {
    const q = parseQuietHours("22:00-01:30") as QuietHours;
    const zone = "America/New_York";
    // 1 November 2026: 01:10 EDT is 05:10Z; after the clocks go back, 01:10 EST is 06:10Z.
    expect(iso(quietUntil(new Date("2026-11-01T05:10:00Z"), q, zone))).toBe(
      "2026-11-01T05:30:00.000Z",
    );
    expect(quietUntil(new Date("2026-11-01T05:40:00Z"), q, zone)).toBeUndefined();
    expect(iso(quietUntil(new Date("2026-11-01T06:10:00Z"), q, zone))).toBe(
      "2026-11-01T06:30:00.000Z",
    );
    const attention = { quietHours: q, timeZone: zone };
    expect(iso(heldUntil({}, new Date("2026-11-01T06:10:00Z"), attention, undefined))).toBe(
      "2026-11-01T06:30:00.000Z",
    );
  });

  it("Berlin's spring-forward night: quiet 22:00-02:30 ends at the jump, 03:00 local", () => {
    const q = parseQuietHours("22:00-02:30") as QuietHours;
    // 29 March 2026: 02:00 CET (01:00Z) becomes 03:00 CEST; 02:30 never happens.
    expect(iso(quietUntil(new Date("2026-03-28T22:00:00Z"), q, "Europe/Berlin"))).toBe(
      "2026-03-29T01:00:00.000Z",
    );
    expect(iso(quietUntil(new Date("2026-03-29T00:59:00Z"), q, "Europe/Berlin"))).toBe(
      "2026-03-29T01:00:00.000Z",
    );
    expect(quietUntil(new Date("2026-03-29T01:00:00Z"), q, "Europe/Berlin")).toBeUndefined();
  });
});
