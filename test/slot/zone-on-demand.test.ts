// The box's time zone is read only when something is shown in it: reading it may start ICU,
// which a service then keeps (~6 MB). Without quiet hours, presenting a question like nothing
// answered reads it never; one like an answered question reads it for the "Last time" day.

import { afterEach, describe, expect, it } from "vitest";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import type { Attention } from "../../src/slot/attention.ts";
import { lastTimeFor } from "../../src/slot/last-time.ts";
import { overnightNews } from "../../src/slot/overnight.ts";
import { atTime, cleanupBoxes, makeBox, selectCard, textCard } from "../support/box.ts";

afterEach(cleanupBoxes);

function countingZone(): { attention: Attention; reads: () => number } {
  let reads = 0;
  const attention: Attention = {
    quietHours: undefined,
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
    expect(lastTimeFor(b, view, () => attention.timeZone)).toBeUndefined();
    expect(reads()).toBe(0);
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
    const offer = lastTimeFor(b, loadQuestion(b, id), () => attention.timeZone);
    expect(offer?.day).toBe("3 Mar");
    expect(reads()).toBe(1);
  });
});
