// Story: `qbridge serve` in New York with quiet hours 22:00-01:30 on the night the clocks go
// back. At the second 01:10 the quiet hours hold for twenty more minutes; the sweep plans its
// next run for then, and never a timer of zero or less (which node fires at once, and which
// made the sweep run back to back until the hour was over).

import { afterEach, describe, expect, it, vi } from "vitest";
import { pauseUntil } from "../../src/backoff.ts";
import { parseQuietHours, type QuietHours } from "../../src/slot/attention/quiet-hours.ts";
import { createSlot } from "../../src/slot/slot.ts";
import { createSweeper } from "../../src/slot/sweeper.ts";
import { cleanupBoxes, makeBox } from "../support/box.ts";

afterEach(() => {
  vi.restoreAllMocks();
  cleanupBoxes();
});

const quiet = { info() {}, warn() {}, error() {} };

describe("the aging sweep's timers", () => {
  it("at the second 01:10 of a fall-back night plans the sweep after quiet hours, never at once", async () => {
    const attention = {
      quietHours: parseQuietHours("22:00-01:30") as QuietHours,
      timeZone: "America/New_York",
    };
    // 01:10 EST, an hour after 01:10 EDT: quiet until 01:30 EST (06:30Z).
    const box = await makeBox({ time: "2026-11-01T06:10:00Z" });
    const slot = createSlot({ core: box, attention });
    const sweeper = createSweeper({ slot, logger: quiet, sweepMinutes: 60, attention });
    // The sweeper's own timers are the ones set while it starts; each is recorded, then set.
    const delays: number[] = [];
    const real = globalThis.setTimeout;
    vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, ms?: number) => {
      delays.push(ms ?? 0);
      return real(fn, ms);
    }) as typeof setTimeout);
    await sweeper.start();
    vi.restoreAllMocks();
    await sweeper.stop();

    expect(delays.filter((ms) => ms <= 0)).toEqual([]);
    // The plan for the end of quiet hours: twenty minutes and the second after them.
    expect(delays).toContain(20 * 60_000 + 1_000);
  });

  it("a pause until a time already past is still a pause", () => {
    expect(pauseUntil(5_000, 10_000)).toBeGreaterThan(0);
    expect(pauseUntil(10_000, 10_000)).toBeGreaterThan(0);
    expect(pauseUntil(12_500, 10_000)).toBe(2_500);
  });
});
