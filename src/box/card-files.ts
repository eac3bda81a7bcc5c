// The question card files of a box: where they are and what one of them says. Files only: a
// card that fails to parse is an entry with its reason, never rewritten. Which files need
// reading again, and the order they are listed in, is the scan's (src/questions/scan.ts).

import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  type Stats,
} from "node:fs";
import { join, relative, sep } from "node:path";
import { CARD_LIMITS } from "../card/codec.ts";
import { parseQuestion } from "../card/load.ts";
import type { Question, Status } from "../card/question.ts";
import { CardReadFailed, QuestionNotFound } from "../errors.ts";
import { type Box, checkCardFolders } from "./box.ts";
import { isValidId, QUESTION_SUFFIX, QUESTIONS_DIR } from "./paths.ts";

export interface CardEntry {
  id: string;
  /** Box-relative path. */
  rel: string;
  status?: Status;
  card?: Question;
  /** Why the card cannot be read, when it cannot. */
  error?: string;
}

/** Box-relative paths of the card files under the questions folder, walked folder by folder
 * (node 20's recursive readdir is not used). Symlinks are listed (and refused by
 * readEntry), never followed. Each folder walked is added to `folders` (absolute paths). */
export function listCardFiles(box: Box, folders?: string[]): string[] {
  checkCardFolders(box.paths);
  const rels: string[] = [];
  const walk = (dir: string, prefix: string): void => {
    const entries = folderEntries(dir);
    if (entries === undefined) return;
    folders?.push(dir);
    for (const entry of entries) {
      if (entry.isDirectory()) walk(`${dir}/${entry.name}`, `${prefix}${entry.name}/`);
      else if (entry.name.endsWith(QUESTION_SUFFIX)) rels.push(prefix + entry.name);
    }
  };
  walk(box.paths.questionsDir, `${QUESTIONS_DIR}/`);
  return rels;
}

/**
 * The card files directly in each of `folders` (absolute, below the questions folder), as
 * box-relative paths: a walk of folders already known, without listing the top folder.
 */
export function listCardFilesIn(box: Box, folders: readonly string[]): string[] {
  checkCardFolders(box.paths);
  const rels: string[] = [];
  const root = box.paths.root;
  for (const folder of folders) {
    const prefix = `${relative(root, folder).split(sep).join("/")}/`;
    for (const entry of folderEntries(folder) ?? []) {
      if (!entry.isDirectory() && entry.name.endsWith(QUESTION_SUFFIX)) {
        rels.push(prefix + entry.name);
      }
    }
  }
  return rels;
}

/** A folder's entries with their types; undefined when the folder is gone. */
function folderEntries(dir: string): Dirent[] | undefined {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

export function cardIdOf(name: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1);
  return base.slice(0, -QUESTION_SUFFIX.length);
}

/**
 * Parses one card file into an entry; symlinks and non-files are refused, not followed. A card
 * removed meanwhile is QuestionNotFound; a disk that fails to read it is CardReadFailed: only
 * a missing file means the question is gone.
 */
export function readEntry(box: Box, rel: string, id: string, stat?: Stats): CardEntry {
  return readCardFile(box, rel, id, stat).entry;
}

/** A card already parsed from this text: read again and found unchanged, it is not parsed twice. */
export interface SeenCard {
  rel: string;
  text: string;
  card: Question;
}

/** The entry of one card file and the text it was parsed from (undefined when unread). */
export function readCard(
  box: Box,
  rel: string,
  id: string,
  stat?: Stats,
  seen?: SeenCard,
): { entry: CardEntry; text: string | undefined } {
  checkCardFolders(box.paths);
  return readCardFile(box, rel, id, stat, seen);
}

function readFailure(rel: string, id: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return new QuestionNotFound(id);
  return new CardReadFailed(rel, code ?? (error as Error).message);
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * The bytes of a card file (a question's or a job's), read so no file can block or mislead
 * the reader: never through a link, only a regular file (a FIFO is never opened for reading
 * without O_NONBLOCK), within the card size limit. `refused` says why a file is not read;
 * an error of the disk (ENOENT among them) is thrown.
 */
export function readCardBytes(full: string, stat?: Stats): { bytes: Buffer } | { refused: string } {
  const checked = (info: Stats): string | undefined => {
    if (info.isSymbolicLink())
      return "it is a symbolic link; cards must be regular files in the box";
    if (!info.isFile()) return "it is not a regular file";
    if (info.size > CARD_LIMITS.bytes) {
      return `it is ${info.size} bytes, over the ${CARD_LIMITS.bytes}-byte card limit`;
    }
    return undefined;
  };
  const before = checked(stat ?? lstatSync(full));
  if (before) return { refused: before };
  let fd: number;
  try {
    fd = openSync(full, OPEN_FLAGS);
  } catch (error) {
    // Swapped for a link between the look and the open.
    if ((error as NodeJS.ErrnoException).code === "ELOOP")
      return {
        refused:
          checked(lstatSync(full)) ??
          "it is a symbolic link; cards must be regular files in the box",
      };
    throw error;
  }
  try {
    const now = checked(fstatSync(fd));
    return now ? { refused: now } : { bytes: readFileSync(fd) };
  } finally {
    closeSync(fd);
  }
}

function readCardFile(
  box: Box,
  rel: string,
  id: string,
  stat?: Stats,
  seen?: SeenCard,
): { entry: CardEntry; text: string | undefined } {
  const refused = (error: string) => ({
    entry: { id, rel, error },
    text: undefined,
  });
  // A file a person named (with a space, say) would be listed but no command could name it.
  if (!isValidId(id)) {
    return refused(
      `its name is not a question id (letters, digits, '.', '_' and '-', 120 at most, starting with a letter or digit): rename the file`,
    );
  }
  const full = join(box.paths.root, rel);
  let bytes: Buffer;
  try {
    const read = readCardBytes(full, stat);
    if ("refused" in read) return refused(read.refused);
    bytes = read.bytes;
  } catch (error) {
    throw readFailure(rel, id, error);
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    // Read leniently, its bad bytes would become U+FFFD and a rewrite would change them.
    return refused("it is not UTF-8 text (cards are UTF-8)");
  }
  // Parsing is a function of the text alone: the same text gives the same card.
  if (seen?.rel === rel && seen.text === text) {
    return { entry: { id, rel, status: seen.card.status, card: seen.card }, text };
  }
  const parsed = parseQuestion(text);
  if (!parsed.ok) return { entry: refused(parsed.reason).entry, text };
  return {
    entry: {
      id,
      rel,
      status: parsed.card.status,
      card: parsed.card,
    },
    text,
  };
}

// ignoreBOM keeps a byte-order mark in the text, so a rewrite writes it back.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * One card of a listing: undefined when it went away meanwhile; a disk that fails to read it
 * lists it as unreadable with that reason (and `unread`, so the index never keeps that).
 */
export function listedEntry(box: Box, rel: string): (CardEntry & { unread?: true }) | undefined {
  try {
    return readEntry(box, rel, cardIdOf(rel));
  } catch (error) {
    if (error instanceof QuestionNotFound) return undefined;
    if (error instanceof CardReadFailed) {
      return { id: cardIdOf(rel), rel, error: error.message, unread: true };
    }
    throw error;
  }
}
