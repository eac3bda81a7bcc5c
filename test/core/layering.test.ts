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
  { room: "surfaces", files: ["src/surfaces.ts"], may: ["slot"] },
  { room: "webhooks", files: ["src/webhooks/"], may: [...CORE, "settings"] },
  { room: "web", files: ["src/web/"], may: [...CORE, "settings", "surfaces"] },
  { room: "mcp", files: ["src/mcp/"], may: [...CORE, "settings", "surfaces"] },
  { room: "hooks", files: ["src/hooks/"], may: [...CORE, "settings", "surfaces"] },
  { room: "bridges", files: ["bridges/"], may: ["floor", "port", "settings"] },
  { room: "client", files: ["src/client/"], may: [] },
  {
    room: "composition root",
    files: ["src/service.ts", "src/cli/"],
    may: [...CORE, "settings", "surfaces", "webhooks", "web", "mcp", "hooks", "bridges", "client"],
  },
];

/**
 * The rooms inside the slot, bottom to top, the same way: what is waiting and when (attention),
 * what is shown and where (presentation), the waiting list's digest (triage), the slot itself,
 * the judge of every attempt, and the door the bridges are given.
 */
const SLOT_ROOMS: { room: string; files: string[]; may: readonly string[] }[] = [
  { room: "attention", files: ["src/slot/attention/", "src/slot/order.ts"], may: [] },
  {
    room: "presentation",
    files: [
      "src/slot/presentation/",
      "src/slot/slot-ops.ts",
      "src/slot/reach.ts",
      "src/slot/registry.ts",
      "src/slot/holder.ts",
      "src/slot/presence.ts",
      "src/slot/hook-lease.ts",
    ],
    may: ["attention"],
  },
  { room: "triage", files: ["src/slot/triage/"], may: ["attention", "presentation"] },
  {
    room: "slot",
    files: [
      "src/slot/slot.ts",
      "src/slot/operations.ts",
      "src/slot/reconcile.ts",
      "src/slot/watcher.ts",
      "src/slot/upkeep.ts",
      "src/slot/sweeper.ts",
      "src/slot/inbox.ts",
      "src/slot/owner.ts",
      "src/slot/grants.ts",
      "src/slot/attention/held-until.ts",
    ],
    may: ["attention", "presentation", "triage"],
  },
  {
    room: "judge",
    files: ["src/slot/judge/"],
    may: ["attention", "presentation", "triage", "slot"],
  },
  {
    room: "door",
    files: ["src/slot/door.ts", "src/slot/bridge.ts", "src/slot/port.ts"],
    may: ["attention", "presentation", "triage", "slot", "judge"],
  },
];

/**
 * Imports and cycles the code still has against the table, each to be removed by moving the
 * code where it belongs. The list only shrinks: an entry the code no longer has fails too.
 */
const NOT_YET: string[] = [];

type Rooms = typeof ROOMS;

function roomIn(rooms: Rooms, file: string): string {
  const found =
    rooms.find(({ files }) => files.includes(file)) ??
    rooms.find(({ files }) => files.some((f) => f.endsWith("/") && file.startsWith(f)));
  return found?.room ?? `no room for ${file}`;
}

const roomOf = (file: string) => roomIn(ROOMS, file);

function againstIn(rooms: Rooms, { from, to }: Import): boolean {
  const here = roomIn(rooms, from);
  const there = roomIn(rooms, to);
  return here !== there && !rooms.find(({ room }) => room === here)?.may.includes(there);
}

const against = (link: Import) => againstIn(ROOMS, link);

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

  it("inside the slot, every import points down the table of its rooms", () => {
    const inside = imports.filter(
      ({ from, to }) => from.startsWith("src/slot/") && to.startsWith("src/slot/"),
    );
    const homeless = [...new Set(inside.flatMap(({ from, to }) => [from, to]))].filter((file) =>
      roomIn(SLOT_ROOMS, file).startsWith("no room"),
    );
    expect(homeless).toEqual([]);
    const wrong = inside
      .filter((link) => againstIn(SLOT_ROOMS, link))
      .map(
        ({ from, to }) =>
          `${from} (${roomIn(SLOT_ROOMS, from)}) imports ${to} (${roomIn(SLOT_ROOMS, to)})`,
      );
    expect(wrong).toEqual([]);
  });

  it("bridges reach the core through the port only (besides the floor and the settings)", () => {
    const around = imports
      .filter(({ from, to }) => from.startsWith("bridges/") && to.startsWith("src/"))
      .filter(({ to }) => !["port", "floor", "settings"].includes(roomOf(to)))
      .map(({ from, to }) => `${from} imports ${to}`);
    expect(around).toEqual([]);
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
