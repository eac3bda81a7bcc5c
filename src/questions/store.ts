// Reading one question by id, straight from the file: the truth at this instant.

import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { readCard } from "../box/card-files.ts";
import { journalPath, pendingJournals } from "../box/journal.ts";
import { checkId } from "../box/paths.ts";
import type { Question } from "../card/question.ts";
import { CardUnreadable, QuestionNotFound } from "../errors.ts";
import type { Core } from "./core.ts";
import { cardRelsNamed, findCardRel, sameIdReason } from "./scan.ts";

export interface LoadedQuestion {
  id: string;
  rel: string;
  card: Question;
  /** The file's text as read, for rewrites that keep everything untouched. */
  text: string;
}

/**
 * The box-relative path of a question, flat layout first, then any subfolder. An id that two
 * card files carry is no question (CardUnreadable naming both): which one is meant is unknown.
 */
export function locateQuestion(core: Core, id: string): string {
  checkId(id);
  const named = cardRelsNamed(core, id).sort();
  if (named.length > 1) throw new CardUnreadable(named[0] as string, sameIdReason(id, named));
  const flat = core.box.paths.questionRel(id);
  if (existsSync(join(core.box.paths.root, flat))) return flat;
  const nested = findCardRel(core.box, core.ledger, id);
  if (nested) return nested;
  throw new QuestionNotFound(id);
}

/** The question as its file says now; `seen`, a load of it from before, spares the parse when
 * the file still holds the same text. */
export function loadQuestion(core: Core, id: string, seen?: LoadedQuestion): LoadedQuestion {
  const rel = locateQuestion(core, id);
  const full = join(core.box.paths.root, rel);
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(full);
  } catch {
    throw new QuestionNotFound(id);
  }
  // One read: the text rewritten is exactly the text validated.
  const { entry, text } = readCard(core.box, rel, id, stat, seen);
  if (!entry.card || text === undefined) {
    throw new CardUnreadable(rel, entry.error ?? "unknown reason");
  }
  return { id, rel, card: entry.card, text };
}

/**
 * True while a journal of this question exists: a write of it is in flight, or was left by a
 * killed process and may yet be undone, so the card on disk may not be the committed one.
 * Readers that report an outcome then read it under the lock (readCommitted); without one the
 * card on disk is committed, and they take no lock.
 */
export function writeInFlight(core: Core, id: string): boolean {
  return existsSync(journalPath(core.box, checkId(id)));
}

/** True when any question has a write in flight or left by a killed process (a journal). */
export function anyWriteInFlight(core: Core): boolean {
  return pendingJournals(core.box).length > 0;
}
