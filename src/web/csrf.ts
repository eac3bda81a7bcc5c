// The form token of a page: an HMAC over the signed link the page was opened with, so a form
// posted from anywhere else (without that page in hand) is refused. Nothing is stored: the
// token is derived again from the link on every POST.

import { createHmac, timingSafeEqual } from "node:crypto";
import type { LinkScope } from "./links.ts";

function scopeText(scope: LinkScope): string {
  return "question" in scope ? `q:${scope.question}` : `page:${scope.page}`;
}

export function formToken(secret: Buffer, scope: LinkScope, signature: string): string {
  return createHmac("sha256", secret)
    .update(`form:${scopeText(scope)}:${signature}`)
    .digest("base64url");
}

export function checkFormToken(
  secret: Buffer,
  scope: LinkScope,
  signature: string,
  given: string | undefined,
): boolean {
  if (!given) return false;
  const wanted = Buffer.from(formToken(secret, scope, signature));
  const offered = Buffer.from(given);
  return offered.length === wanted.length && timingSafeEqual(offered, wanted);
}
