// The documents that describe the house (docs/BRIDGES.md, docs/ARCHITECTURE.md,
// docs/RELIABILITY.md) are checked against the tree: every file or folder they cite exists,
// the bridge docs/BRIDGES.md walks through as its example (e-mail) included.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/box.ts";

const CITED = /(?:src|bridges|test|docs|bench|deploy)\/[A-Za-z0-9_./-]*[A-Za-z0-9_]/g;

/** The paths a document cites that are not in the tree. */
function missing(doc: string): string[] {
  const cited = new Set(readFileSync(join(ROOT, doc), "utf8").match(CITED) ?? []);
  return [...cited].filter((path) => !existsSync(join(ROOT, path)));
}

describe("the documents cite only what is in the tree", () => {
  it("docs/BRIDGES.md, its example bridge's files included", () => {
    expect(missing("docs/BRIDGES.md")).toEqual([]);
  });

  it("docs/ARCHITECTURE.md and docs/RELIABILITY.md", () => {
    expect([...missing("docs/ARCHITECTURE.md"), ...missing("docs/RELIABILITY.md")]).toEqual([]);
  });
});
