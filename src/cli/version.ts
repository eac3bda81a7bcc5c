// The package version `qbridge --version` prints, read from the package's own package.json:
// two folders up from the sources (src/cli/), one from the bundle (dist/). Never guessed: a
// package.json that is not question-bridge's is passed over.

import { readFileSync } from "node:fs";

export function packageVersion(): string {
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
