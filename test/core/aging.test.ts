// Story: a question nobody answers is nudged once after 7 days and expires after 30 (or, with
// `expires-after`, nudged at half of it and expired at it). Time is the frozen clock, so every
// boundary is exact. Age comes from `asked-at` alone: losing the ledger's latch can cost a
// duplicate nudge, never a reset of age, and a nudge nobody received stays due.

import { afterEach, describe, expect, it } from "vitest";
import { ageQuestions, type Nudger } from "../../src/questions/aging.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import type { Core } from "../../src/questions/core.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import {
  atTime,
  cleanupBoxes,
  cliEnv,
  gitLog,
  lastCommitTrailers,
  makeBox,
  runCli,
  selectCard,
  T0,
  type TestBox,
} from "../support/box.ts";

afterEach(cleanupBoxes);

/** T0 (the asked-at of every question here) plus days, hours and minutes. */
function plus(days: number, hours = 0, minutes = 0): string {
  const ms = ((days * 24 + hours) * 60 + minutes) * 60_000;
  return new Date(new Date(T0).getTime() + ms).toISOString().replace(".000Z", "Z");
}

/** A nudger that records whom it nudged and reports delivery as told. */
function recordingNudger(delivers: boolean | "throws" = true): Nudger & { nudged: string[] } {
  const nudged: string[] = [];
  const nudge = async (question: { id: string }) => {
    nudged.push(question.id);
    if (delivers === "throws") throw new Error("telegram is down");
    return delivers;
  };
  return Object.assign(nudge, { nudged });
}

async function boxWithQuestion(overrides: Record<string, unknown> = {}) {
  const tb = await makeBox({ time: T0 });
  const { id } = await askQuestion(tb, selectCard(overrides));
  return { tb, id };
}

function sweep(tb: TestBox, time: string, nudge?: Nudger) {
  return ageQuestions(atTime(tb, time), nudge ? { nudge } : {});
}

function status(core: Core, id: string) {
  return loadQuestion(core, id).card.status;
}

describe("the default schedule: nudge at 7 days, expire at 30", () => {
  it("does not nudge at 6 days 23 hours", async () => {
    const { tb, id } = await boxWithQuestion();
    const nudger = recordingNudger();
    const report = await sweep(tb, plus(6, 23), nudger);
    expect(nudger.nudged).toEqual([]);
    expect(report.nudged).toEqual([]);
    expect(report.nudgeDue).toEqual([]);
    expect(status(tb, id)).toBe("pending");
  });

  it("nudges at exactly 7 days, once: a second sweep does not nudge again", async () => {
    const { tb, id } = await boxWithQuestion();
    const nudger = recordingNudger();
    expect((await sweep(tb, plus(7), nudger)).nudged).toEqual([id]);
    expect((await sweep(tb, plus(7), nudger)).nudged).toEqual([]);
    expect((await sweep(tb, plus(20), nudger)).nudged).toEqual([]);
    expect(nudger.nudged).toEqual([id]);
    expect(status(tb, id)).toBe("pending");
  });

  it("does not expire at 29 days 23 hours 59 minutes", async () => {
    const { tb, id } = await boxWithQuestion();
    const report = await sweep(tb, plus(29, 23, 59));
    expect(report.expired).toEqual([]);
    expect(status(tb, id)).toBe("pending");
  });

  it("expires at exactly 30 days, committed with Expired-By: question-aging", async () => {
    const { tb, id } = await boxWithQuestion();
    const commits = (await gitLog(tb.dir)).length;
    const report = await sweep(tb, plus(30));
    expect(report.expired).toEqual([id]);
    const card = loadQuestion(tb, id).card;
    expect(card.status).toBe("expired");
    expect(card["expired-at"]).toBe(plus(30));
    expect(card.answer).toBeUndefined();
    expect(await gitLog(tb.dir)).toHaveLength(commits + 1);
    expect(await lastCommitTrailers(tb.dir)).toEqual({
      "Expired-By": "question-aging",
      Question: id,
    });
  });
});

describe("expires-after: P2D replaces the 30 days and puts the nudge at half", () => {
  it("does not nudge at 23 hours 59 minutes", async () => {
    const { tb } = await boxWithQuestion({ "expires-after": "P2D" });
    const nudger = recordingNudger();
    await sweep(tb, plus(0, 23, 59), nudger);
    expect(nudger.nudged).toEqual([]);
  });

  it("nudges at 1 day", async () => {
    const { tb, id } = await boxWithQuestion({ "expires-after": "P2D" });
    const nudger = recordingNudger();
    await sweep(tb, plus(1), nudger);
    expect(nudger.nudged).toEqual([id]);
    expect(status(tb, id)).toBe("pending");
  });

  it("stays pending at 1 day 23 hours 59 minutes and expires at 2 days", async () => {
    const { tb, id } = await boxWithQuestion({ "expires-after": "P2D" });
    expect((await sweep(tb, plus(1, 23, 59))).expired).toEqual([]);
    expect(status(tb, id)).toBe("pending");
    expect((await sweep(tb, plus(2))).expired).toEqual([id]);
    expect(status(tb, id)).toBe("expired");
  });
});

describe("age comes from asked-at, never from the latch", () => {
  it("after the latch is deleted, nudges at most once more and still expires at 30 days", async () => {
    const { tb, id } = await boxWithQuestion();
    const nudger = recordingNudger();
    await sweep(tb, plus(7), nudger);
    tb.ledger.db.exec("DELETE FROM nudges");
    await sweep(tb, plus(8), nudger);
    await sweep(tb, plus(9), nudger);
    expect(nudger.nudged.length).toBeLessThanOrEqual(2);
    const report = await sweep(tb, plus(30), nudger);
    expect(report.expired).toEqual([id]);
    expect(status(tb, id)).toBe("expired");
  });

  it("expires a 30-day-old question even when the ledger never saw it nudged", async () => {
    const { tb, id } = await boxWithQuestion();
    const nudger = recordingNudger();
    const report = await sweep(tb, plus(30), nudger);
    expect(report.expired).toEqual([id]);
    expect(nudger.nudged).toEqual([]);
  });

  it("does not age a question filed later by the time of an earlier one", async () => {
    const tb = await makeBox({ time: T0 });
    const { id: old } = await askQuestion(tb, selectCard());
    const { id: young } = await askQuestion(atTime(tb, plus(25)), selectCard({ prompt: "Later?" }));
    const report = await sweep(tb, plus(30));
    expect(report.expired).toEqual([old]);
    expect(status(tb, young)).toBe("pending");
  });
});

describe("a nudge nobody received stays due", () => {
  it("keeps the nudge due when the nudger reports no delivery, and sends it on the next sweep", async () => {
    const { tb, id } = await boxWithQuestion();
    const failing = recordingNudger(false);
    const first = await sweep(tb, plus(7), failing);
    expect(first.nudged).toEqual([]);
    expect(first.nudgeDue).toEqual([id]);
    const working = recordingNudger();
    expect((await sweep(tb, plus(7, 1), working)).nudged).toEqual([id]);
  });

  it("keeps the nudge due when the nudger throws, and the sweep still expires what is due", async () => {
    const tb = await makeBox({ time: T0 });
    const { id: stale } = await askQuestion(tb, selectCard({ "expires-after": "P7D" }));
    // High priority puts it first in the sweep, so the throw comes before the expiry is due.
    const { id: fresh } = await askQuestion(
      tb,
      selectCard({ prompt: "Another one?", priority: "high" }),
    );
    const throwing = recordingNudger("throws");
    const report = await sweep(tb, plus(7), throwing);
    expect(report.nudgeDue).toEqual([fresh]);
    expect(report.expired).toEqual([stale]);
    expect(status(tb, stale)).toBe("expired");
    const working = recordingNudger();
    expect((await sweep(tb, plus(7, 1), working)).nudged).toEqual([fresh]);
  });

  it("a claim left by a sweep that died before confirming (no boxholder paired yet) is taken over, not kept forever", async () => {
    const { tb, id } = await boxWithQuestion();
    // The sweep that claimed it died before it could release or confirm the claim.
    expect(tb.ledger.claimNudge(id, plus(7))).toBe(true);
    const nudger = recordingNudger();
    expect((await sweep(tb, plus(7, 1), nudger)).nudged).toEqual([id]);
    expect((await sweep(tb, plus(8), recordingNudger())).nudged).toEqual([]);
  });

  it("without a nudger, reports the nudge due and latches nothing", async () => {
    const { tb, id } = await boxWithQuestion();
    expect((await sweep(tb, plus(7))).nudgeDue).toEqual([id]);
    expect((await sweep(tb, plus(8))).nudgeDue).toEqual([id]);
    expect(tb.ledger.nudgedAt(id)).toBeUndefined();
  });
});

describe("qbridge age with QBRIDGE_TIME", () => {
  it("expires at the frozen time of 30 days and reports nudges due at 7", async () => {
    const { tb, id } = await boxWithQuestion();
    const env = (time: string) => ({ env: cliEnv(tb.dir, { QBRIDGE_TIME: time }) });
    const early = await runCli(["age", "--json"], env(plus(7)));
    expect(early.stderr).toBe("");
    expect(early.code).toBe(0);
    expect(JSON.parse(early.stdout)).toMatchObject({ nudgeDue: [id], expired: [] });
    const late = await runCli(["age"], env(plus(30)));
    expect(late.code).toBe(0);
    expect(late.stdout).toContain(`expired ${id}`);
    expect(status(tb, id)).toBe("expired");
    expect(await lastCommitTrailers(tb.dir)).toMatchObject({ "Expired-By": "question-aging" });
  });
});
