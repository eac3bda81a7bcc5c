// The outbox rows: a transition is owed once per receiver, comes due at its next try, and a
// delivery that gave up stays listed.

import { afterEach, describe, expect, it } from "vitest";
import {
  allDeliveries,
  dueDeliveries,
  enqueueDelivery,
  givenUpDeliveries,
  markDelivered,
  markFailed,
  markGivenUp,
  nextDueAt,
} from "../../src/webhooks/outbox.ts";
import { cleanupBoxes, makeBox, T0 } from "../support/box.ts";

afterEach(cleanupBoxes);

const owed = (key: string, url = "http://127.0.0.1:9/hook") => ({
  key,
  url,
  body: `{"key":"${key}"}`,
  createdAt: T0,
  nextTryAt: 1_000,
});

describe("the webhook outbox", () => {
  it("owes a transition to a receiver once, however often it is enqueued", async () => {
    const { ledger } = await makeBox();
    expect(enqueueDelivery(ledger, owed("q1:answered"))).toBe(true);
    expect(enqueueDelivery(ledger, owed("q1:answered"))).toBe(false);
    expect(enqueueDelivery(ledger, owed("q1:answered", "https://other.example/hook"))).toBe(true);
    expect(allDeliveries(ledger)).toHaveLength(2);
  });

  it("hands out a delivery when its next try is due, and never after it was delivered or gave up", async () => {
    const { ledger } = await makeBox();
    enqueueDelivery(ledger, owed("q1:answered"));
    enqueueDelivery(ledger, owed("q2:dismissed"));
    const [first, second] = dueDeliveries(ledger, 1_000);
    expect(dueDeliveries(ledger, 999)).toEqual([]);
    markFailed(ledger, first?.seq as number, "HTTP 500", 5_000);
    expect(dueDeliveries(ledger, 1_000).map((d) => d.key)).toEqual(["q2:dismissed"]);
    expect(nextDueAt(ledger)).toBe(1_000);
    markDelivered(ledger, second?.seq as number, T0);
    expect(nextDueAt(ledger)).toBe(5_000);
    markGivenUp(ledger, first?.seq as number, T0);
    expect(dueDeliveries(ledger, 10_000)).toEqual([]);
    expect(nextDueAt(ledger)).toBeUndefined();
    expect(givenUpDeliveries(ledger)).toMatchObject([
      { key: "q1:answered", tries: 1, lastError: "HTTP 500", gaveUpAt: T0 },
    ]);
  });
});
