import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one, on the 2-core machines this
    // project targets. Most files wait on child processes, git and timers rather than compute,
    // so two at a time halve the wall time without starving either.
    maxWorkers: 2,
    setupFiles: ["test/support/setup.ts"],
  },
});
