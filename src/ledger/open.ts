// Opening the ledger's SQLite file: migrated to the current schema; a corrupt file is set
// aside and a fresh one made; on a read-only box, a copy in memory; a full or failing disk is
// one sentence that says so. Never loses a file: what cannot be opened is renamed, not removed.

import { accessSync, constants, existsSync, mkdirSync, renameSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { BoxError, LedgerTooNew } from "../errors.ts";
import { MIGRATIONS } from "./migrations.ts";
import { reuseStatements } from "./statements.ts";

export type Db = BetterSqlite3.Database;

/** The ledger's page cache: 2 MB (a negative cache_size is in KiB). */
export const PAGE_CACHE_KIB = -2000;

/**
 * SQLite (a native module) is loaded with the first ledger opened, not with the code that may
 * open one: `qbridge show` and `wait` read a card and never need it.
 * In the CLI bundle (CommonJS, src/cli/launch.ts) `require` exists and the build bundles
 * better-sqlite3's JavaScript in, so it runs from the code cache instead of ten files loaded
 * from node_modules; its compiled part is handed to it by path (no search for it by
 * `bindings`). Run as ES module sources (tests, tsx) it comes from node_modules as it is.
 */
let required: NodeRequire | undefined;
/**
 * node's require for this module: in the bundle the CommonJS one it runs with (resolving from
 * dist/), else one made on first use (making it reads the module's URL, which loads node:url).
 */
function load(): NodeRequire {
  if (typeof require === "function") return require;
  required ??= createRequire(import.meta.url);
  return required;
}
let sqlite: { Database: typeof BetterSqlite3; addon: object | undefined } | undefined;

/** better-sqlite3's compiled part, as npm installs it beside the built CLI (dist/../node_modules). */
const ADDON_BESIDE_BUILD = "../node_modules/better-sqlite3/build/Release/better_sqlite3.node";

/** The compiled part: where npm puts it beside the build, tried first (node's search of every
 * node_modules folder up the tree cost a short command half a millisecond), else found. */
function sqliteAddon(): object {
  try {
    return load()(ADDON_BESIDE_BUILD) as object;
  } catch {
    return load()(load().resolve("better-sqlite3/build/Release/better_sqlite3.node")) as object;
  }
}

function sqliteModules(): { Database: typeof BetterSqlite3; addon: object | undefined } {
  let addon: object | undefined;
  try {
    addon = sqliteAddon();
  } catch {
    // Built somewhere else: better-sqlite3 from node_modules finds its own.
    return { Database: load()("better-sqlite3") as typeof BetterSqlite3, addon: undefined };
  }
  const Database = (
    typeof require === "function" ? require("better-sqlite3") : load()("better-sqlite3")
  ) as typeof BetterSqlite3;
  return { Database, addon };
}

function openSqlite(filename: string | Buffer, options: BetterSqlite3.Options = {}): Db {
  sqlite ??= sqliteModules();
  // better-sqlite3 takes the loaded addon as well as a path; its types know only the path.
  const nativeBinding = sqlite.addon as string | undefined;
  return new sqlite.Database(filename, { ...options, nativeBinding });
}

export interface OpenedLedger {
  db: Db;
  /** Set when the file could not be opened and was moved aside to this path. */
  setAside: string | undefined;
  /** True on a read-only box: the ledger is a copy in memory. */
  readOnly: boolean;
}

export function openLedgerFile(path: string): OpenedLedger {
  let setAside: string | undefined;
  let db: Db;
  let readOnly = false;
  // Asked first: SQLite opens a read-only file without a word when its WAL files are there (a
  // service stopped mid-run), and every write, even the card index's catch-up, then fails.
  if (readOnlyBox(dirname(path))) {
    return { db: reuseStatements(readOnlyCopy(path)), setAside: undefined, readOnly: true };
  }
  try {
    mkdirSync(dirname(path), { recursive: true });
    db = openDatabase(path);
  } catch (error) {
    if (readOnlyBox(dirname(path))) {
      db = readOnlyCopy(path);
      readOnly = true;
    } else {
      if (isStorageFault(error)) throw storageFault(path, error);
      if (!isCorruption(error)) throw error;
      setAside = `${path}.corrupt-${Date.now()}`;
      renameSync(path, setAside);
      db = openDatabase(path);
    }
  }
  return { db: reuseStatements(db), setAside, readOnly };
}

function openDatabase(path: string): Db {
  const db = openSqlite(path, { timeout: 10_000 });
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 10000");
  // SQLite's own default page cache (2 MB), not better-sqlite3's 16 MB: the service reads the
  // card index whole at times (14 MB at 10,000 cards) and kept every page it read in malloc'd
  // memory for good. The pages it needs again come back from the OS's file cache.
  db.pragma(`cache_size = ${PAGE_CACHE_KIB}`);
  return migrated(db, path);
}

/** The database brought to the current schema, or closed when that fails. */
function migrated(db: Db, path: string): Db {
  try {
    migrate(db, path);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

function migrate(db: Db, path: string): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > MIGRATIONS.length) throw new LedgerTooNew(path, version, MIGRATIONS.length);
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      // Another process may have migrated while this one waited for the write lock.
      const now = db.pragma("user_version", { simple: true }) as number;
      if (now > v) return;
      db.exec(MIGRATIONS[v] as string);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}

/**
 * Whether the ledger at `path` would open as a read-only box's copy in memory, asked without
 * opening it: the check openLedgerFile makes first.
 */
export function ledgerReadOnly(path: string): boolean {
  return readOnlyBox(dirname(path));
}

/** Whether the folder (or the nearest one that exists) refuses writes: a read-only mount. */
function readOnlyBox(dir: string): boolean {
  let at = dir;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  try {
    accessSync(at, constants.W_OK);
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "EROFS" || code === "EACCES" || code === "EPERM";
  }
}

/**
 * The ledger of a read-only box, in memory: a copy of the file when SQLite can read it there
 * (a newer schema is still refused), else an empty one. Old buttons and latches are not needed
 * to read cards; nothing can be written to the box anyway.
 */
function readOnlyCopy(path: string): Db {
  let db: Db;
  try {
    const file = openSqlite(path, { readonly: true, fileMustExist: true });
    try {
      const bytes = file.serialize();
      // A WAL file's header (bytes 18 and 19 = 2) makes the copy in memory read-only: rollback.
      bytes[18] = 1;
      bytes[19] = 1;
      db = openSqlite(bytes);
    } finally {
      file.close();
    }
  } catch {
    db = openSqlite(":memory:");
  }
  return migrated(db, path);
}

/** The disk, not the file: full, failing, read-only or not writable. */
function isStorageFault(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? "";
  return /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN)/.test(code);
}

function storageFault(path: string, error: unknown): BoxError {
  const code = (error as { code?: string }).code;
  return new BoxError(
    `the ledger ${path} cannot be opened (${code}: ${(error as Error).message}): the disk may be full or the box read-only; free some space or make it writable, then try again`,
  );
}

function isCorruption(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? "";
  return code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT");
}
