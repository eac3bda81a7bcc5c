// Story: the aging sweep finds a question past its deadline and, before it takes that question's
// lock, the boxholder gives it more time: `qbridge extend` in another process (or the chat's
// Extend, or a hand edit of `expires-after`). The sweep decided on the card it scanned; it must
// decide again on the card it holds. Before, it expired the question the boxholder had just
// been told was extended.
//
// The interleaving is driven, not timed: the sweep's progress hook runs just before it acts on
// each question, and the extension runs there to completion (a child process, synchronously).

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ageQuestions } from "../../src/questions/aging.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import {
  atTime,
  CLI,
  cleanupBoxes,
  cliEnv,
  gitLog,
  makeBox,
  readBoxFile,
  selectCard,
} from "../support/box.ts";

afterAll(cleanupBoxes);

/** Two days after the test clock's asked-at: a one-day question is past its deadline. */
const SWEEP_TIME = "2026-07-12T09:00:00Z";

describe("the aging sweep racing a longer deadline", () => {
  it("an extension committed by another process after the scan keeps the question pending", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard({ "expires-after": "P1D" }));
    const late = atTime(tb, SWEEP_TIME);
    let extended = "";
    const report = await ageQuestions(late, {
      // Called before each question, and once more when all are done.
      onProgress: (done, total) => {
        if (done === total) return;
        extended = execFileSync(process.execPath, [CLI, "extend", id, "P30D"], {
          env: { ...process.env, ...cliEnv(tb.dir), QBRIDGE_TIME: SWEEP_TIME },
          encoding: "utf8",
        });
      },
    });
    expect(extended).toContain(id);
    const card = loadQuestion(tb, id).card;
    expect(card.status).toBe("pending");
    // Thirty days from the time of the extension (two days after asking), not from the old deadline.
    expect(card["expires-after"]).toBe("P32D");
    expect(report.expired).toEqual([]);
    expect(report.skipped).toEqual([id]);
    expect((await gitLog(tb.dir)).filter((s) => s.startsWith("expire:"))).toEqual([]);
  });

  it("a hand edit lengthening expires-after after the scan keeps the question pending", async () => {
    const tb = await makeBox();
    const { id, rel } = await askQuestion(tb, selectCard({ "expires-after": "P1D" }));
    const path = join(tb.dir, rel);
    const report = await ageQuestions(atTime(tb, SWEEP_TIME), {
      onProgress: (done, total) => {
        if (done === total) return;
        writeFileSync(
          path,
          readBoxFile(tb.dir, rel).replace("expires-after: P1D", "expires-after: P60D"),
        );
      },
    });
    expect(loadQuestion(tb, id).card.status).toBe("pending");
    expect(report.expired).toEqual([]);
  });

  it("a question answered in another process after the scan gets no nudge", async () => {
    const tb = await makeBox();
    // Half of P2D: due for its nudge a day after asking, not yet for expiry.
    const { id } = await askQuestion(tb, selectCard({ "expires-after": "P2D" }));
    const nudged: string[] = [];
    const report = await ageQuestions(atTime(tb, "2026-07-11T12:00:00Z"), {
      onProgress: (done, total) => {
        if (done === total) return;
        execFileSync(process.execPath, [CLI, "answer", id, "a"], {
          env: { ...process.env, ...cliEnv(tb.dir) },
        });
      },
      nudge: async (question) => {
        nudged.push(question.id);
        return true;
      },
    });
    expect(loadQuestion(tb, id).card.status).toBe("answered");
    expect(nudged).toEqual([]);
    expect(report.nudged).toEqual([]);
    expect(tb.ledger.nudgedAt(id)).toBeUndefined();
  });

  it("a question still past its deadline when the sweep holds it is expired", async () => {
    const tb = await makeBox();
    const { id } = await askQuestion(tb, selectCard({ "expires-after": "P1D" }));
    const report = await ageQuestions(atTime(tb, SWEEP_TIME));
    expect(report.expired).toEqual([id]);
    expect(loadQuestion(tb, id).card.status).toBe("expired");
  });
});
