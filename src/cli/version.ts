// The package version `qbridge --version` prints: fixed in the bundle by the build, read from
// package.json when the sources run.

import { readFileSync } from "node:fs";

/** Set by the build in the bundles (scripts/build.mjs); absent when the sources run. */
declare const QBRIDGE_BUILT_VERSION: string | undefined;

export function packageVersion(): string {
  if (typeof QBRIDGE_BUILT_VERSION === "string") return QBRIDGE_BUILT_VERSION;
  for (const up of ["../../package.json", "../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8")) as {
        name?: string;
        version: string;
      };
      if (pkg.name === "question-bridge") return pkg.version;
    } catch {
      // not at this level; try the next
    }
  }
  return "unknown";
}
