// How a test arms a crash point in a qbridge child: the child is started with the test-only
// listener (crash-at.mjs) preloaded, which kills it at the step QBRIDGE_TEST_CRASH_AT names.
// Without that preload the variable does nothing, as in production.

import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const CRASH_AT = join(dirname(fileURLToPath(import.meta.url)), "crash-at.mjs");

/** Node flags for a qbridge child with this environment: the crash listener when it names a point. */
export function crashFlags(env: Record<string, string | undefined>): string[] {
  return env.QBRIDGE_TEST_CRASH_AT ? ["--import", pathToFileURL(CRASH_AT).href] : [];
}
