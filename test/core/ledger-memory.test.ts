// The ledger's SQLite page cache stays small, and it makes each prepared statement once and reuses it (better-sqlite3 frees a
// statement's native memory only when the garbage collector gets to it), keeps at most
// KEPT_STATEMENTS of them, and a reused statement still gives the rows its caller asks for.

import { afterEach, describe, expect, it } from "vitest";
import { PAGE_CACHE_KIB } from "../../src/ledger/open.ts";
import { KEPT_STATEMENTS } from "../../src/ledger/statements.ts";
import { cleanupBoxes, makeBox } from "../support/box.ts";

afterEach(cleanupBoxes);

describe("the ledger's memory", () => {
  it("keeps SQLite's page cache at 2 MB, not better-sqlite3's 16 MB, and reads its scan stamps from an index", async () => {
    const { ledger } = await makeBox();
    expect(PAGE_CACHE_KIB).toBe(-2000);
    expect(ledger.db.pragma("cache_size", { simple: true })).toBe(PAGE_CACHE_KIB);
    const plan = ledger.db
      .prepare("EXPLAIN QUERY PLAN SELECT name, mtime, size FROM card_index")
      .all() as { detail: string }[];
    expect(plan.map((row) => row.detail).join()).toContain("COVERING INDEX card_index_stamps");
  });
});

describe("the ledger's prepared statements", () => {
  it("are made once per SQL text, each use getting the row shape it asks for", async () => {
    const { ledger } = await makeBox();
    const db = ledger.db;
    ledger.setMeta("probe", "one");
    const sql = "SELECT key, value FROM meta WHERE key = ?";
    expect(db.prepare(sql)).toBe(db.prepare(sql));
    expect(db.prepare(sql).raw().get("probe")).toEqual(["probe", "one"]);
    expect(db.prepare(sql).get("probe")).toEqual({ key: "probe", value: "one" });
    expect(db.prepare(sql).pluck().get("probe")).toBe("probe");
    expect(db.prepare(sql).all("probe")).toEqual([{ key: "probe", value: "one" }]);
    expect(ledger.getMeta("probe")).toBe("one");
  });

  it("keeps at most KEPT_STATEMENTS, the least recently used made anew, and all still run", async () => {
    const { ledger } = await makeBox();
    const db = ledger.db;
    const sql = (i: number) => `SELECT ${i} AS n`;
    const first = db.prepare(sql(0));
    const kept = db.prepare(sql(1));
    for (let i = 2; i <= KEPT_STATEMENTS; i++) {
      db.prepare(sql(i));
      db.prepare(sql(1)); // used often: stays
    }
    expect(db.prepare(sql(1))).toBe(kept);
    expect(db.prepare(sql(0))).not.toBe(first);
    expect(db.prepare(sql(0)).get()).toEqual({ n: 0 });
    expect(first.get()).toEqual({ n: 0 });
  });

  it("hands out a fresh statement while the kept one is iterating", async () => {
    const { ledger } = await makeBox();
    const db = ledger.db;
    for (const key of ["a", "b"]) ledger.setMeta(`probe-${key}`, key);
    const sql = "SELECT value FROM meta WHERE key LIKE 'probe-%' ORDER BY key";
    const seen: string[] = [];
    for (const row of db.prepare(sql).iterate() as Iterable<{ value: string }>) {
      seen.push(row.value, ...(db.prepare(sql).all() as { value: string }[]).map((r) => r.value));
    }
    expect(seen).toEqual(["a", "a", "b", "b", "a", "b"]);
  });
});
