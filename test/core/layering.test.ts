// The layers of src/, read from the source: the box knows files and git only; files are small
// (about 250 lines at most, or their header says why they are longer).

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const SRC = join(ROOT, "src");
/** "About 250": a few lines of slack, so a file is split for its jobs, not for a line count. */
const MOST_LINES = 260;

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

  it("no file in src/ or bridges/ is over about 250 lines unless its header says why", () => {
    const long = [...sourceFiles(SRC), ...sourceFiles(join(ROOT, "bridges"))].flatMap((file) => {
      const lines = readFileSync(file, "utf8").split("\n");
      const header = lines
        .slice(
          0,
          lines.findIndex((line) => !line.startsWith("//")),
        )
        .join(" ");
      return lines.length > MOST_LINES && !/over 250 lines/i.test(header)
        ? [`${file.slice(ROOT.length + 1)}: ${lines.length} lines`]
        : [];
    });
    expect(long).toEqual([]);
  });
});
