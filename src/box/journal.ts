// The undo journal of a change: before the first write, .qbridge/journal/<key>.json records
// what each file held; after the commit it is deleted. A journal found later means a writer
// died midway: `recover` either sees the commit in HEAD (done, drop the journal) or puts every
// file back. Never touches a path the journal does not name.

import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { readOrNull, writeAtomic } from "./atomic.ts";
import type { Box } from "./box.ts";
import { unstage, withCommitLock } from "./commit-lock.ts";

/** Told that a plan's commit landed, with the plan's record, before its journal is dropped. */
export type Committed = (commit: string, record: Record<string, unknown>) => void;

export interface Journal {
  key: string;
  files: { rel: string; before: string | null; after: string }[];
  record?: Record<string, unknown>;
}

export function journalPath(box: Box, key: string): string {
  return join(box.paths.journalDir, `${key}.json`);
}

/** Writes the journal of `key` (whole or not at all). */
export function writeJournal(box: Box, journal: Journal): void {
  writeAtomic(journalPath(box, journal.key), JSON.stringify(journal), { durable: box.durable });
}

export function dropJournal(box: Box, key: string): void {
  rmSync(journalPath(box, key), { force: true });
}

/** Puts every file of the journal back as it was, last written first. */
export function restore(box: Box, files: Journal["files"]): void {
  for (const file of [...files].reverse()) {
    const path = box.paths.abs(file.rel);
    if (file.before === null) rmSync(path, { force: true });
    // A file the write never reached needs no rewrite (and may sit on a read-only disk).
    else if (readOrNull(path) !== file.before) {
      writeAtomic(path, file.before, { durable: box.durable });
    }
  }
}

/**
 * Finishes what a dead writer left for `key`: returns what it did, or undefined if nothing.
 * When the commit had landed, `onCommitted` gets the writer's record before the journal goes.
 */
export async function recover(
  box: Box,
  key: string,
  onCommitted?: Committed,
): Promise<"committed" | "rolled back" | undefined> {
  const path = journalPath(box, key);
  // A writer killed inside a write leaves its temporary file; the caller holds `key`'s lock,
  // so any temporary file of `key`'s journal or files is a dead writer's.
  removeTempFiles(path);
  if (!existsSync(path)) return undefined;
  let journal: Journal;
  try {
    journal = JSON.parse(readFileSync(path, "utf8")) as Journal;
  } catch {
    // A journal is written whole or not at all (rename); an unreadable one has nothing to undo.
    rmSync(path, { force: true });
    return undefined;
  }
  for (const file of journal.files) removeTempFiles(box.paths.abs(file.rel));
  const last = journal.files[journal.files.length - 1];
  const inHead = last ? await headContent(box, last.rel) : null;
  if (last && inHead === last.after) {
    if (journal.record && onCommitted) {
      const commit = (await box.git.raw(["log", "-1", "--format=%H", "--", last.rel])).trim();
      onCommitted(commit, journal.record);
    }
    rmSync(path, { force: true });
    return "committed";
  }
  // A writer killed inside its commit left its files staged; unstage them as a writer would,
  // under the commit lock.
  await withCommitLock(box, () =>
    unstage(
      box,
      journal.files.map((f) => f.rel),
    ).catch(() => undefined),
  );
  restore(box, journal.files);
  rmSync(path, { force: true });
  return "rolled back";
}

/** Removes `<path>.<pid>.tmp` files, the temporary files of writeAtomic(path). */
function removeTempFiles(path: string): void {
  const folder = dirname(path);
  const prefix = `${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(prefix) && /^\d+\.tmp$/.test(name.slice(prefix.length))) {
      rmSync(join(folder, name), { force: true });
    }
  }
}

async function headContent(box: Box, rel: string): Promise<string | null> {
  try {
    return await box.git.raw(["cat-file", "blob", `HEAD:${rel}`]);
  } catch {
    return null;
  }
}

/** The box-relative paths the interrupted write of `key` touched, from its journal. */
export function journalPaths(box: Box, key: string): string[] {
  try {
    return (JSON.parse(readFileSync(journalPath(box, key), "utf8")) as Journal).files.map(
      (f) => f.rel,
    );
  } catch {
    return [];
  }
}

/** The keys of journals left behind by writers that died. */
export function pendingJournals(box: Box): string[] {
  if (!existsSync(box.paths.journalDir)) return [];
  return readdirSync(box.paths.journalDir)
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length));
}
