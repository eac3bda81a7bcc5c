// The door of every page: the signed link in `s` must open exactly this scope, or the person
// gets a 403 page saying why and how to get a fresh link.

import type { Context } from "hono";
import type { WebDeps } from "./deps.ts";
import { checkLink, type LinkScope } from "./links.ts";
import { deniedLinkPage } from "./problem-page.ts";

export function questionHref(id: string, signature: string): string {
  return `/q/${encodeURIComponent(id)}?s=${signature}`;
}

/** The 403 page when the link does not open this scope, or undefined when it does. */
export function refuseLink(c: Context, deps: WebDeps, scope: LinkScope): Response | undefined {
  const check = checkLink(deps.secret, scope, c.req.query("s"), deps.core.box.clock.now());
  if (check.ok) return undefined;
  const expiredAt = check.reason === "expired" ? expiryOf(c.req.query("s")) : undefined;
  return c.html(deniedLinkPage(check.reason, expiredAt), 403);
}

function expiryOf(signature: string | undefined): Date | undefined {
  const seconds = Number.parseInt(signature?.split(".")[0] ?? "", 36);
  return Number.isFinite(seconds) ? new Date(seconds * 1000) : undefined;
}
