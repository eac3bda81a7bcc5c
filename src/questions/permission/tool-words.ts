// A tool call in the project's words, for the card's memo and the audit: where it runs, what
// an edit changes in line counts, and the one line the audit keeps. Pure. Never rewords the
// request itself: the card's prompt and `request` carry it as given.

import { basename, dirname } from "node:path";
import { headAndTail, requestOf } from "../../card/agent-request.ts";

/** The last two parts of a path: enough to tell two checkouts apart on a phone. */
export function lastTwoParts(path: string): string {
  const parent = basename(dirname(path));
  return parent && parent !== "/" && parent !== "."
    ? `${parent}/${basename(path)}`
    : basename(path);
}

function lineCount(value: unknown): number {
  return typeof value === "string" && value !== "" ? value.split("\n").length : 0;
}

/** The one line the audit keeps of a request: its head and tail. */
export function requestSummary(input: Record<string, unknown>): string {
  return headAndTail(requestOf(input).replace(/\s+/g, " "), 300);
}

/** What an edit changes, in line counts: Edit and MultiEdit old/new, Write the new content. */
export function diffSummary(tool: string, input: Record<string, unknown>): string | undefined {
  if (typeof input.old_string === "string" || typeof input.new_string === "string") {
    return `Replaces ${lineCount(input.old_string)} line(s) with ${lineCount(input.new_string)}.`;
  }
  if (Array.isArray(input.edits)) {
    const edits = input.edits as Record<string, unknown>[];
    const old = edits.reduce((n, e) => n + lineCount(e.old_string), 0);
    const next = edits.reduce((n, e) => n + lineCount(e.new_string), 0);
    return `${edits.length} edit(s): ${old} line(s) replaced with ${next}.`;
  }
  if (tool === "Write" && typeof input.content === "string") {
    return `Writes ${lineCount(input.content)} line(s).`;
  }
  return undefined;
}
