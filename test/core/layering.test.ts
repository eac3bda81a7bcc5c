// The layers of src/, read from the source: the box knows files and git only.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

describe("the layers of src/", () => {
  it("the box imports nothing from the ledger, the slot or the questions", () => {
    const offending = sourceFiles(join(SRC, "box")).flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => /from "\.\.\/(ledger|slot|questions)\//.test(line))
        .map((line) => `${file.slice(SRC.length + 1)}: ${line.trim()}`),
    );
    expect(offending).toEqual([]);
  });
});
