// Story: a maintainer runs `npm run bench` and every part of it finishes: each part (the
// transition, start-up, the answer memory, Telegram, serve's memory, the agent, the phone, the
// permission hook, e-mail) runs once here at a tiny size, so a part that breaks fails here, not
// months later in a long bench run. Speed is never asserted: only that each part prints its
// figures.

import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/box.ts";

/** Every part at its smallest: boxes of 10 cards, short idles, one round each, but four of the
 * in-process rounds: a part that repeats one step (Telegram's tap) must get past the slot's
 * repeat guard, which holds off a question presented three times in a row. */
const TINY = {
  BENCH_SIZES: "10",
  BENCH_RUNS: "4",
  BENCH_CARDS: "10",
  BENCH_STARTUP_RUNS: "1",
  BENCH_SIMILAR_CARDS: "10",
  BENCH_IDLE_MS: "200",
  BENCH_ROUNDS: "1",
  BENCH_WARM_ROUNDS: "1",
  BENCH_SETTLE_MS: "0",
  BENCH_PHONE_RUNS: "1",
  BENCH_HOOK_RUNS: "1",
  BENCH_EMAIL_RUNS: "1",
};

describe("npm run bench", () => {
  it("runs every part once at a tiny size and prints each part's figures", () => {
    const result = spawnSync(
      process.execPath,
      [join(ROOT, "node_modules/tsx/dist/cli.mjs"), join(ROOT, "bench/run.ts")],
      { cwd: ROOT, encoding: "utf8", env: { ...process.env, ...TINY }, timeout: 900_000 },
    );
    expect(result.stderr).not.toMatch(/Error/);
    expect(result.status).toBe(0);
    for (const part of [
      "answer transition",
      "start-up budgets",
      "telegram tap→ack",
      "serve idle RSS",
      "filed→phone",
      "hook start",
      "e-mail:",
    ]) {
      expect(result.stdout, part).toContain(part);
    }
  }, 900_000);
});
