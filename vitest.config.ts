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
    // A worker runs file after file in one process instead of starting a fresh one per file.
    // Nothing a file sets may outlive it: the setup file kills its leftover children and removes
    // its box layout, every box is removed by its own file, and a file that changes
    // process.env puts it back (the setup file sets what every file needs).
    isolate: false,
    setupFiles: ["test/support/setup.ts"],
  },
});
