// The layers of src/ and bridges/, read from the source: every import points down the table
// below (docs/ARCHITECTURE.md says the same in words), no files import each other through any
// path, runtime or type-only, and files are small (about 250 lines at most, or their header
// says why they are longer).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findCycles, type Import, readImports, sourceFiles } from "../support/imports.ts";

const ROOT = join(import.meta.dirname, "../..");
/** "About 250": a few lines of slack, so a file is split for its jobs, not for a line count. */
const MOST_LINES = 260;

const CORE = ["floor", "card", "box", "ledger", "questions", "slot", "port"] as const;

/**
 * The rooms, bottom to top, and what each may import besides its own files. The core points
 * one way (card <- box <- ledger <- questions <- slot); the adapters sit on top, beside each
 * other, and never import each other; only the composition root wires adapters together.
 * Bridges see the core through one door, the port, besides the floor and the settings helpers.
 * A file listed by name belongs to its row even inside a folder another row lists.
 */
const ROOMS: { room: string; files: string[]; may: readonly string[] }[] = [
  { room: "floor", files: ["src/errors.ts", "src/mutex.ts", "src/backoff.ts"], may: [] },
  { room: "card", files: ["src/card/"], may: ["floor"] },
  { room: "box", files: ["src/box/"], may: ["floor", "card"] },
  { room: "ledger", files: ["src/ledger/"], may: ["floor", "card", "box"] },
  { room: "questions", files: ["src/questions/"], may: ["floor", "card", "box", "ledger"] },
  { room: "slot", files: ["src/slot/"], may: ["floor", "card", "box", "ledger", "questions"] },
  { room: "port", files: ["src/slot/port.ts"], may: ["card", "questions", "slot"] },
  { room: "settings", files: ["src/config.ts", "src/logger.ts"], may: CORE },
  { room: "webhooks", files: ["src/webhooks/"], may: [...CORE, "settings"] },
  { room: "web", files: ["src/web/"], may: [...CORE, "settings"] },
  { room: "mcp", files: ["src/mcp/"], may: [...CORE, "settings"] },
  { room: "hooks", files: ["src/hooks/"], may: [...CORE, "settings"] },
  { room: "bridges", files: ["bridges/"], may: ["floor", "port", "settings"] },
  { room: "client", files: ["src/client/"], may: [] },
  {
    room: "composition root",
    files: ["src/service.ts", "src/cli/"],
    may: [...CORE, "settings", "webhooks", "web", "mcp", "hooks", "bridges", "client"],
  },
];

/**
 * Imports and cycles the code still has against the table, each to be removed by moving the
 * code where it belongs. The list only shrinks: an entry the code no longer has fails too.
 */
const NOT_YET: string[] = [];

function roomOf(file: string): string {
  const found =
    ROOMS.find(({ files }) => files.includes(file)) ??
    ROOMS.find(({ files }) => files.some((f) => f.endsWith("/") && file.startsWith(f)));
  return found?.room ?? `no room for ${file}`;
}

function against({ from, to }: Import): boolean {
  const here = roomOf(from);
  const there = roomOf(to);
  return here !== there && !ROOMS.find(({ room }) => room === here)?.may.includes(there);
}

const imports = readImports(ROOT, ["src", "bridges"]);

describe("the layers of src/ and bridges/", () => {
  it("every file has a room in the table", () => {
    const files = [...sourceFiles(join(ROOT, "src")), ...sourceFiles(join(ROOT, "bridges"))];
    const homeless = files
      .map((file) =>
        file
          .slice(ROOT.length + 1)
          .split("\\")
          .join("/"),
      )
      .filter((file) => roomOf(file).startsWith("no room"));
    expect(homeless).toEqual([]);
  });

  it("no import points against the direction of the table", () => {
    const wrong = imports
      .filter(against)
      .map(({ from, to }) => `${from} (${roomOf(from)}) imports ${to} (${roomOf(to)})`);
    expect(wrong.filter((line) => !NOT_YET.includes(line))).toEqual([]);
  });

  it("no files import each other, through any path, at run time or for types only", () => {
    const cycles = findCycles(imports).map((cycle) => `cycle: ${cycle.join(" -> ")}`);
    expect(cycles.filter((line) => !NOT_YET.includes(line))).toEqual([]);
  });

  it("what is not yet in its room is still there (the list only shrinks)", () => {
    const now = new Set([
      ...imports
        .filter(against)
        .map(({ from, to }) => `${from} (${roomOf(from)}) imports ${to} (${roomOf(to)})`),
      ...findCycles(imports).map((cycle) => `cycle: ${cycle.join(" -> ")}`),
    ]);
    expect(NOT_YET.filter((line) => !now.has(line))).toEqual([]);
  });

  it("no file in src/ or bridges/ is over about 250 lines unless its header says why", () => {
    const long = [...sourceFiles(join(ROOT, "src")), ...sourceFiles(join(ROOT, "bridges"))].flatMap(
      (file) => {
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
      },
    );
    expect(long).toEqual([]);
  });
});
