import { existsSync } from "node:fs";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest, longest first. Vitest starts the files it timed before longest
 * first, but a clean clone (CI, a newcomer) has no timings and starts the largest files first:
 * the bench's short file then starts last and runs a minute alone while the other workers idle.
 * A file named here must exist, so a rename cannot leave the list quietly stale.
 */
const LONGEST_FIRST = [
  "test/ship/bench.test.ts",
  "test/reliability/crash-matrix.test.ts",
  "test/core/cli.test.ts",
  "test/reliability/flaky-api.test.ts",
  "test/reliability/redelivery.test.ts",
  "test/core/crash-recovery.test.ts",
  "test/webhooks/delivery.test.ts",
  "test/ship/doctor.test.ts",
  "test/ship/package.test.ts",
  "test/ship/conflict.test.ts",
  "test/reliability/races.test.ts",
];
for (const file of LONGEST_FIRST) {
  if (!existsSync(new URL(file, import.meta.url))) {
    throw new Error(`vitest.config.ts: ${file} is gone: update LONGEST_FIRST`);
  }
}

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return at === -1 ? LONGEST_FIRST.length : at;
    };
    // Array sort is stable: the rest keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one, on the 2-core machines this
    // project targets. Most files wait on child processes, git, servers and the product's own
    // backoffs rather than compute, so one worker per core leaves the cores idle much of the run:
    // four overlap those waits.
    maxWorkers: 4,
    // A worker runs file after file in one process instead of starting a fresh one per file.
    // Nothing a file sets may outlive it: the setup file kills its leftover children, then removes
    // the boxes and scratch folders it left and its box layout, and a file that changes
    // process.env puts it back (the setup file sets what every file needs).
    isolate: false,
    setupFiles: ["test/support/setup.ts"],
    sequence: { sequencer: LongestFirst },
  },
});
