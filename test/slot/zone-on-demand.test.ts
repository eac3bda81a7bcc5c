// The box's time zone is read only when something is shown in it: reading it may start ICU,
// which a service then keeps (~8 MB). Without quiet hours, presenting a question like nothing
// answered reads it never; one like an answered question reads it for the "Last time" day,
// unless the zone is the process's own, which Date's local getters read without Intl.

import { afterEach, describe, expect, it, vi } from "vitest";
import { telegram } from "../../bridges/telegram/bridge.ts";
import { loadConfig } from "../../src/config.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { dateIn, hourIn, shortDay, zoneOf } from "../../src/questions/stats/stats-clock.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import type { Attention } from "../../src/slot/attention/attention.ts";
import { overnightNews } from "../../src/slot/attention/overnight.ts";
import { declared } from "../../src/slot/bridge.ts";
import { openDoor } from "../../src/slot/door.ts";
import { lastTimeFor } from "../../src/slot/presentation/last-time.ts";
import { createSlot } from "../../src/slot/slot.ts";
import { atTime, cleanupBoxes, makeBox, selectCard, textCard } from "../support/box.ts";

afterEach(cleanupBoxes);

function countingZone(ownZone = false): { attention: Attention; reads: () => number } {
  let reads = 0;
  const attention: Attention = {
    quietHours: undefined,
    ownZone,
    get timeZone() {
      reads += 1;
      return "UTC";
    },
  };
  return { attention, reads: () => reads };
}

describe("the time zone, read on demand", () => {
  it("is not read without quiet hours for a question like nothing answered", async () => {
    const b = await makeBox();
    const { id } = await askQuestion(b, textCard());
    const view = loadQuestion(b, id);
    const { attention, reads } = countingZone();
    expect(overnightNews(b, attention, [view])).toBeUndefined();
    expect(lastTimeFor(b, view, attention)).toBeUndefined();
    expect(reads()).toBe(0);
  });

  it("is not read as a bridge's door opens, only when the bridge shows a time", async () => {
    const b = await makeBox();
    const { attention, reads } = countingZone();
    const slot = createSlot({ core: b, attention });
    try {
      const door = openDoor(slot, declared(telegram.surface, telegram.proves, "1001"));
      expect(reads()).toBe(0);
      expect(door.timeZone).toBe("UTC");
      expect(reads()).toBe(1);
    } finally {
      await slot.close();
    }
  });

  it("is read once to show the day of the answer a similar question got", async () => {
    const b = await makeBox();
    const first = await askQuestion(b, selectCard({ "asked-at": "2026-03-02T09:00:00Z" }));
    await answerQuestion(
      atTime(b, "2026-03-03T10:00:00Z"),
      first.id,
      { text: "finance" },
      {
        via: "cli",
      },
    );
    const { id } = await askQuestion(
      b,
      selectCard({ prompt: "Where do photographed receipts from the bakery belong?" }),
    );
    const { attention, reads } = countingZone();
    const offer = lastTimeFor(b, loadQuestion(b, id), attention);
    expect(offer?.day).toBe("3 Mar");
    expect(reads()).toBe(1);
  });

  it("in the process's own zone, shows the day with no Intl formatter or locale comparison", async () => {
    const b = await makeBox();
    for (const [asked, answered] of [
      ["2026-03-02T09:00:00Z", "2026-03-03T12:00:00Z"],
      ["2026-03-01T09:00:00Z", "2026-03-02T12:00:00Z"],
    ] as const) {
      const past = await askQuestion(b, selectCard({ "asked-at": asked }));
      await answerQuestion(atTime(b, answered), past.id, { text: "finance" }, { via: "cli" });
    }
    const { id } = await askQuestion(
      b,
      selectCard({ prompt: "Where do photographed receipts from the bakery belong?" }),
    );
    const view = loadQuestion(b, id);
    const { attention, reads } = countingZone(true);
    const formatters = vi.spyOn(Intl, "DateTimeFormat");
    const compared = vi.spyOn(String.prototype, "localeCompare");
    try {
      // Two answers alike tie on their score: the newest is shown (a day in zones -11 to +11).
      expect(lastTimeFor(b, view, attention)?.day).toBe("3 Mar");
      expect(formatters).not.toHaveBeenCalled();
      expect(compared).not.toHaveBeenCalled();
      expect(reads()).toBe(0);
    } finally {
      formatters.mockRestore();
      compared.mockRestore();
    }
  });

  it("is the process's own only while QBRIDGE_TIMEZONE is unset", () => {
    const own = loadConfig({});
    expect([own.ownZone, own.attention.ownZone, zoneOf(own)]).toEqual([true, true, undefined]);
    const berlin = loadConfig({ QBRIDGE_TIMEZONE: "Europe/Berlin" });
    expect([berlin.ownZone, berlin.attention.ownZone]).toEqual([false, false]);
    expect(shortDay(new Date("2026-03-03T23:30:00Z"), zoneOf(berlin.attention))).toBe("4 Mar");
  });

  it("reads the hour, date and day in the process's own zone as Intl does in that zone by name", () => {
    const before = process.env.TZ;
    // A zone 5:45 ahead of UTC, so that hours and dates differ from UTC's.
    process.env.TZ = "Asia/Kathmandu";
    try {
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      expect(new Date("2026-01-01T00:15:00Z").getHours()).toBe(6);
      for (let month = 0; month < 12; month++) {
        for (const hour of [0, 11, 18, 23]) {
          const at = new Date(Date.UTC(2026, month, 1 + month * 2, hour, 30));
          expect(hourIn(at, undefined)).toBe(hourIn(at, zone));
          expect(dateIn(at, undefined)).toBe(dateIn(at, zone));
          expect(shortDay(at, undefined)).toBe(shortDay(at, zone));
        }
      }
      expect(shortDay(new Date("2026-09-03T18:30:00Z"), undefined)).toBe("4 Sept");
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });
});
