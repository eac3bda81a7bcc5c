// The door of every page: the signed link in `s` must open exactly this scope, or the person
// gets a 403 page saying which problem it is and how to get a fresh link. A link that opened
// says whom it was made for: a link handed to an asker shows and never answers (a post with it
// is refused here, before anything is read). Pages that opened also get their way on: freshly
// signed links to the next question and to all questions, for the same role.

import { readdirSync } from "node:fs";
import type { Context } from "hono";
import { QUESTION_SUFFIX } from "../box/paths.ts";
import { type BoxState, boxState } from "../questions/state.ts";
import type { SignedDeps } from "./deps.ts";
import type { PageLinks } from "./layout.ts";
import { checkLink, type LinkRole, type LinkScope, signLink } from "./links.ts";
import { deniedLinkPage, type LinkProblem, showOnlyPage } from "./problem-page.ts";

/**
 * How a page reaches the site's root: "" from /questions and /stats, "../" from /q/ID and
 * /questions/triage. Links between pages are relative, so they keep working when a reverse
 * proxy serves the pages under a path (QBRIDGE_PUBLIC_URL=https://example.org/qbridge).
 */
export type ToRoot = "" | "../";

export function questionHref(id: string, signature: string, toRoot: ToRoot): string {
  return `${toRoot}q/${encodeURIComponent(id)}?s=${signature}`;
}

/** A link that opened its page: its signature, and whom it was made for. */
export interface Opened {
  signature: string;
  role: LinkRole;
}

/**
 * The link's role when it opens this scope; else the 403 page. `typed` is what a form sent:
 * shown back only when the link was good but has expired meanwhile.
 */
export function openLink(
  c: Context,
  deps: SignedDeps,
  scope: LinkScope,
  typed: readonly string[] = [],
): Opened | Response {
  const signature = c.req.query("s");
  const now = deps.core.box.clock.now();
  const check = checkLink(deps.secret, scope, signature, now);
  if (check.ok) return { signature: signature as string, role: check.role };
  let problem: LinkProblem = check.reason;
  if (problem === "tampered" && signedForAnother(deps, scope, signature, now))
    problem = "elsewhere";
  const expiredAt = problem === "expired" ? expiryOf(signature) : undefined;
  const kept = problem === "expired" ? typed : [];
  return c.html(deniedLinkPage(problem, scope, expiredAt, deps.config.timeZone, kept), 403);
}

/**
 * Whether an intact signature was made for another page or question of this box: a link
 * pasted into the wrong address, not a changed one. Only an unexpired match counts. Anyone can
 * send a well-formed wrong signature, so this reads only the card file names (no card is
 * parsed) and nothing at all for an expired one: a refusal costs a directory listing, not a
 * scan of the box.
 */
function signedForAnother(
  deps: SignedDeps,
  scope: LinkScope,
  signature: string | undefined,
  now: Date,
): boolean {
  const expires = expiryOf(signature);
  if (!expires || expires.getTime() <= now.getTime()) return false;
  const others: LinkScope[] = [{ page: "questions" }, { page: "stats" }];
  try {
    for (const name of readdirSync(deps.core.box.paths.questionsDir)) {
      if (name.endsWith(QUESTION_SUFFIX))
        others.push({ question: name.slice(0, -QUESTION_SUFFIX.length) });
    }
  } catch {
    // An unreadable folder only loses the finer wording of the refusal.
  }
  const same = JSON.stringify(scope);
  return others.some(
    (other) => JSON.stringify(other) !== same && checkLink(deps.secret, other, signature, now).ok,
  );
}

/**
 * For a post: the link's role when it opens this scope for the boxholder; the 403 page for any
 * other link, and for a link handed to an asker (it answers nothing: nothing is read or changed).
 */
export function openForPost(
  c: Context,
  deps: SignedDeps,
  scope: LinkScope,
  typed: readonly string[] = [],
): Opened | Response {
  const opened = openLink(c, deps, scope, typed);
  if (opened instanceof Response || opened.role === "boxholder") return opened;
  return c.html(showOnlyPage(), 403);
}

function expiryOf(signature: string | undefined): Date | undefined {
  const seconds = Number.parseInt(signature?.split(".")[0] ?? "", 36);
  return Number.isFinite(seconds) ? new Date(seconds * 1000) : undefined;
}

/**
 * Next question (the first waiting one other than `current`) and all questions, signed now.
 * `state` saves a second scan where the caller has one.
 */
export function pageLinks(
  deps: SignedDeps,
  toRoot: ToRoot,
  role: LinkRole,
  current?: string,
  state?: BoxState,
): PageLinks {
  const now = deps.core.box.clock.now();
  const all = `${toRoot}questions?s=${signLink(deps.secret, { page: "questions", role }, now)}`;
  try {
    const next = (state ?? boxState(deps.core)).pending.find((view) => view.id !== current);
    if (!next) return { all };
    const signature = signLink(deps.secret, { question: next.id, role }, now);
    return { all, next: questionHref(next.id, signature, toRoot) };
  } catch {
    return { all };
  }
}
