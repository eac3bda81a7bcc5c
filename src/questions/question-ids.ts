// Question ids as a person or an agent types them: the full id, any unique beginning of it, or
// its end (the 6-character suffix, say), 4 characters at least. One resolver for every surface
// (the CLI, the API, the MCP tools), run before a command touches the question. An id that
// matches nothing names the closest ids; one that matches several lists them. Never guesses:
// an id that matches two questions is refused, whichever was meant.

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type BoxPaths, QUESTION_SUFFIX } from "../box/paths.ts";
import { InvalidInput, QuestionNotFound } from "../errors.ts";
import type { Core } from "./core.ts";

const SHOWN = 5;
/**
 * The fewest characters a part of an id must have to stand for it: one or two letters match
 * some id by chance (`qbridge answer a ID`, its two words swapped, would answer the one
 * question whose id ends in "a" with the id as its text).
 */
const SHORTEST_PART = 4;

/** Every question id in the box (cards may sit in subfolders); undefined when there is no box. */
function questionIds(paths: BoxPaths): string[] | undefined {
  const ids: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      // A symlinked folder is not followed: the box never reads through one.
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith(QUESTION_SUFFIX))
        ids.push(entry.name.slice(0, -QUESTION_SUFFIX.length));
    }
  };
  try {
    walk(paths.questionsDir);
  } catch {
    return undefined; // no box here, or none readable: the command says so in its own words
  }
  return ids;
}

/** Edits between two strings (Levenshtein), for naming the closest ids. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      next[j] = Math.min(
        (row[j] as number) + 1,
        (next[j - 1] as number) + 1,
        (row[j - 1] as number) + cost,
      );
    }
    row = next;
  }
  return row[b.length] as number;
}

/** How far `given` is from `id` read as a whole, as a prefix, or as its end. */
function closeness(given: string, id: string): number {
  const n = given.length;
  return Math.min(
    distance(given, id),
    distance(given, id.slice(0, n)),
    distance(given, id.slice(-n)),
  );
}

/** The question id `given` stands for among `ids`. */
export function resolveQuestionId(given: string, ids: string[]): string {
  if (ids.includes(given)) return given;
  const matches = ids.filter((id) => id.startsWith(given) || id.endsWith(given)).sort();
  if (matches.length > 0 && given.length < SHORTEST_PART) {
    throw new InvalidInput(
      `"${given}" is too short to stand for a question id: give its start or its end, ${SHORTEST_PART} characters at least, or the whole id`,
    );
  }
  if (matches.length === 1) return matches[0] as string;
  if (matches.length > 1) {
    const shown = matches.slice(0, SHOWN).join(", ");
    const more = matches.length > SHOWN ? `, and ${matches.length - SHOWN} more` : "";
    throw new InvalidInput(
      `"${given}" matches ${matches.length} questions (${shown}${more}): give more of the id`,
    );
  }
  // Close enough to be a slip: at most a third of what was typed differs.
  const limit = Math.max(2, Math.floor(given.length / 3));
  const near = ids
    .map((id) => ({ id, d: closeness(given, id) }))
    .filter(({ d }) => d <= limit)
    .sort((a, b) => a.d - b.d || a.id.localeCompare(b.id))
    .slice(0, 3)
    .map(({ id }) => id);
  throw new QuestionNotFound(given, near);
}

/** Whether `given` is text an id (or a part of one) is made of; other text is never looked up. */
export function couldBeQuestionId(given: string): boolean {
  return /^[A-Za-z0-9._-]+$/.test(given) && !given.includes("..");
}

/**
 * The full question id `given` stands for in the box at `paths`. Text that cannot be an id is
 * left as given: the operation's own check refuses it in its words; so is any id when there is
 * no box to look in.
 */
export function findQuestionId(paths: BoxPaths, given: string): string {
  if (!couldBeQuestionId(given)) return given;
  // The whole id, as agents give it: its card is there, no folder need be listed.
  if (existsSync(join(paths.questionsDir, `${given}${QUESTION_SUFFIX}`))) return given;
  const ids = questionIds(paths);
  return ids ? resolveQuestionId(given, ids) : given;
}

/** The full id of the question `given` stands for in this core's box. */
export function questionIdOf(core: Core, given: string): string {
  return findQuestionId(core.box.paths, given);
}
