// Opening the ledger's SQLite file: migrated to the current schema; a corrupt file (or, when
// asked, one that fails SQLite's quick check) is set aside and a fresh one made; on a read-only box, a copy in memory; a full or failing disk is
// one sentence that says so. Never loses a file: what cannot be opened is renamed, not removed.

import { accessSync, constants, existsSync, mkdirSync, renameSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { BoxError, LedgerTooNew } from "../errors.ts";
import { MIGRATIONS } from "./migrations.ts";
import { reuseStatements } from "./statements.ts";

export type Db = Database.Database;

/** The ledger's page cache: 2 MB (a negative cache_size is in KiB). */
export const PAGE_CACHE_KIB = -2000;

export interface OpenedLedger {
  db: Db;
  /** Set when the file could not be opened and was moved aside to this path. */
  setAside: string | undefined;
  /** What SQLite's check found, when the file opened but failed it and was set aside. */
  damage?: string;
  /** True on a read-only box: the ledger is a copy in memory. */
  readOnly: boolean;
}

export interface OpenLedgerOptions {
  /**
   * Run SQLite's quick check once opened, and set the file aside when it fails: a start of a
   * process that runs for long (serve), not every short command (it reads every page).
   */
  check?: boolean;
}

export function openLedgerFile(path: string, options: OpenLedgerOptions = {}): OpenedLedger {
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
      setAside = moveAside(path);
      db = openDatabase(path);
    }
  }
  if (options.check && !readOnly && setAside === undefined) {
    const damage = checkDb(db, "quick_check(5)");
    if (damage !== "ok") {
      db.close();
      const moved = moveAside(path);
      return { db: reuseStatements(openDatabase(path)), setAside: moved, damage, readOnly };
    }
  }
  return { db: reuseStatements(db), setAside, readOnly };
}

/** SQLite's two checks: the quick one reads every page, the whole one checks more. */
export type LedgerCheck = "quick_check(5)" | "integrity_check";

/**
 * SQLite's `check` on `db`: "ok", what it found, or the error it met (a malformed page can make
 * the check itself fail).
 */
export function checkDb(db: Db, check: LedgerCheck): string {
  try {
    const rows = db.pragma(check) as Record<string, string>[];
    return rows.map((row) => Object.values(row)[0]).join("; ");
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * SQLite's `check` of the file at `path`, from a connection of its own. FTS5 keeps its index's
 * structure per connection, and a connection that has not read it since another process wrote
 * reports a checksum mismatch that is not there: a long-lived connection must never run a check
 * itself.
 */
export function checkFile(path: string, check: LedgerCheck): string {
  let db: Db | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, timeout: 10_000 });
    return checkDb(db, check);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    db?.close();
  }
}

/**
 * Moves a damaged ledger aside, with its WAL files: a WAL left beside the fresh file would be
 * replayed into it. Returns where the file went.
 */
function moveAside(path: string): string {
  const aside = `${path}.corrupt-${Date.now()}`;
  renameSync(path, aside);
  for (const side of ["-wal", "-shm"]) {
    if (existsSync(path + side)) renameSync(path + side, aside + side);
  }
  return aside;
}

function openDatabase(path: string): Db {
  const db = new Database(path, { timeout: 10_000 });
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
    const file = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const bytes = file.serialize();
      // A WAL file's header (bytes 18 and 19 = 2) makes the copy in memory read-only: rollback.
      bytes[18] = 1;
      bytes[19] = 1;
      db = new Database(bytes);
    } finally {
      file.close();
    }
  } catch {
    db = new Database(":memory:");
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
