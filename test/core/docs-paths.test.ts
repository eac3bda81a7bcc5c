// The documents that describe the house (docs/BRIDGES.md, docs/ARCHITECTURE.md,
// docs/RELIABILITY.md) are checked against the tree: every file or folder they cite exists. The
// one exception is the Slack bridge docs/BRIDGES.md walks through as an example of a bridge to
// add: its files are named for someone to write.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/box.ts";

const CITED = /(?:src|bridges|test|docs|bench|deploy)\/[A-Za-z0-9_./-]*[A-Za-z0-9_]/g;

/** The paths a document cites that are not in the tree. */
function missing(doc: string, example?: RegExp): string[] {
  const cited = new Set(readFileSync(join(ROOT, doc), "utf8").match(CITED) ?? []);
  return [...cited].filter(
    (path) => !(example?.test(path) ?? false) && !existsSync(join(ROOT, path)),
  );
}

describe("the documents cite only what is in the tree", () => {
  it("docs/BRIDGES.md (its Slack example aside)", () => {
    expect(missing("docs/BRIDGES.md", /slack/i)).toEqual([]);
  });

  it("docs/ARCHITECTURE.md and docs/RELIABILITY.md", () => {
    expect([...missing("docs/ARCHITECTURE.md"), ...missing("docs/RELIABILITY.md")]).toEqual([]);
  });
});
