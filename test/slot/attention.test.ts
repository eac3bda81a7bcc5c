// The slot's clock arithmetic for the boxholder's attention, with no bot: quiet hours read in
// the box's time zone (across midnight and a daylight-saving jump), the decision "may it be
// sent now, and silently?", and the times "Later" offers.

import { describe, expect, it } from "vitest";
import { heldUntil, sendDecision } from "../../src/slot/attention/attention.ts";
import { laterOptions } from "../../src/slot/attention/later.ts";
import { lastQuiet, parseQuietHours, quietUntil } from "../../src/slot/attention/quiet-hours.ts";

const NIGHT = parseQuietHours("22:00-07:30");
const BERLIN = { quietHours: NIGHT, timeZone: "Europe/Berlin" };
const iso = (d: Date | undefined) => d?.toISOString();

describe("quiet hours", () => {
  it("reads HH:MM-HH:MM and refuses anything else", () => {
    expect(parseQuietHours("22:00-07:30")).toEqual({ from: 1320, to: 450 });
    expect(parseQuietHours("9:15 - 12:00")).toEqual({ from: 555, to: 720 });
    for (const bad of ["22-07", "25:00-07:00", "22:00-22:00", "22:00", "night"]) {
      expect(parseQuietHours(bad)).toBeUndefined();
    }
  });

  it("hold from 22:00 to 07:30 local time, across midnight and in winter and summer", () => {
    const zone = "Europe/Berlin";
    const q = NIGHT as NonNullable<typeof NIGHT>;
    // 23:00 in summer (UTC+2) ends at 07:30 the next morning.
    expect(iso(quietUntil(new Date("2026-07-10T21:00:00Z"), q, zone))).toBe(
      "2026-07-11T05:30:00.000Z",
    );
    // 03:00 ends the same morning; 07:30 and 21:59 are not quiet.
    expect(iso(quietUntil(new Date("2026-07-11T01:00:00Z"), q, zone))).toBe(
      "2026-07-11T05:30:00.000Z",
    );
    expect(quietUntil(new Date("2026-07-11T05:30:00Z"), q, zone)).toBeUndefined();
    expect(quietUntil(new Date("2026-07-10T19:59:00Z"), q, zone)).toBeUndefined();
    // The night the clocks go forward (29 March 2026): 07:30 is UTC+2 again.
    expect(iso(quietUntil(new Date("2026-03-28T22:00:00Z"), q, zone))).toBe(
      "2026-03-29T05:30:00.000Z",
    );
    expect(lastQuiet(new Date("2026-07-11T08:00:00Z"), q, zone)).toEqual({
      start: new Date("2026-07-10T20:00:00Z"),
      end: new Date("2026-07-11T05:30:00Z"),
    });
  });

  it("holds all but high questions while they last; low ones are silent by day", () => {
    const night = new Date("2026-07-10T21:00:00Z");
    const day = new Date("2026-07-10T12:00:00Z");
    expect(sendDecision({ priority: "high" }, night, BERLIN)).toEqual({
      heldUntil: undefined,
      silent: false,
    });
    expect(iso(sendDecision({}, night, BERLIN).heldUntil)).toBe("2026-07-11T05:30:00.000Z");
    expect(sendDecision({ priority: "low" }, day, BERLIN)).toEqual({
      heldUntil: undefined,
      silent: true,
    });
    expect(sendDecision({}, day, BERLIN).silent).toBe(false);
    // Put off to 23:00: it then waits out the quiet hours too.
    expect(iso(heldUntil({}, day, BERLIN, "2026-07-10T21:00:00Z"))).toBe(
      "2026-07-11T05:30:00.000Z",
    );
    expect(heldUntil({}, day, BERLIN, "2026-07-10T10:00:00Z")).toBeUndefined();
  });
});

describe("later", () => {
  it("offers this evening before 19:00, tomorrow 09:00 and next Monday 09:00 in the box's zone", () => {
    // Friday 10 July 2026, 15:00 in Berlin.
    const friday = laterOptions(new Date("2026-07-10T13:00:00Z"), "Europe/Berlin");
    expect(friday.map((o) => [o.choice, o.until.toISOString()])).toEqual([
      ["evening", "2026-07-10T17:00:00.000Z"],
      ["morning", "2026-07-11T07:00:00.000Z"],
      ["week", "2026-07-13T07:00:00.000Z"],
    ]);
    // Monday 20:00 in New York: no evening left; next week is a week on.
    const monday = laterOptions(new Date("2026-07-14T00:00:00Z"), "America/New_York");
    expect(monday.map((o) => [o.choice, o.until.toISOString()])).toEqual([
      ["morning", "2026-07-14T13:00:00.000Z"],
      ["week", "2026-07-20T13:00:00.000Z"],
    ]);
  });
});
