// The one backoff rule every retrying caller uses.

import { describe, expect, it } from "vitest";
import { backoffDelay, nextBackoff } from "../../src/backoff.ts";

describe("the backoff rule", () => {
  it("doubles each pause from the first up to the cap", () => {
    const backoff = { firstMs: 1_000, maxMs: 5_000 };
    expect([0, 1, 2, 3, 4].map((retry) => backoffDelay(retry, backoff))).toEqual([
      1_000, 2_000, 4_000, 5_000, 5_000,
    ]);
  });

  it("adds the first pause each time when asked to grow by adding", () => {
    const backoff = { firstMs: 5, maxMs: 12, growth: "add" as const };
    expect([0, 1, 2, 3].map((retry) => backoffDelay(retry, backoff))).toEqual([5, 10, 12, 12]);
  });

  it("adds jitter after the cap, never more than asked", () => {
    const backoff = { firstMs: 100, maxMs: 100, jitterMs: 10 };
    expect(backoffDelay(5, backoff, () => 0)).toBe(100);
    expect(backoffDelay(5, backoff, () => 0.5)).toBe(105);
    expect(backoffDelay(5, backoff, () => 0.999)).toBeLessThan(110);
  });

  it("treats a negative retry as the first", () => {
    expect(backoffDelay(-1, { firstMs: 7, maxMs: 100 })).toBe(7);
  });

  it("steps from the last pause the same way it counts from the first", () => {
    const backoff = { firstMs: 250, maxMs: 8_000 };
    const pauses: number[] = [];
    let pause: number | undefined;
    for (let i = 0; i < 7; i++) {
      pause = nextBackoff(pause, backoff);
      pauses.push(pause);
    }
    expect(pauses).toEqual([0, 1, 2, 3, 4, 5, 6].map((retry) => backoffDelay(retry, backoff)));
    expect(nextBackoff(10, { firstMs: 5, maxMs: 12, growth: "add" })).toBe(12);
  });
});
