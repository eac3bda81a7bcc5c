// Signed links to the web page. A link names one question (or the questions page), whom it was
// made for, and an expiry, and carries an HMAC over all three with the box's secret key, so it
// cannot be forged, widened to another question or another role, or used after it expires. A
// link a bridge sends the boxholder answers; a link handed to an asker (the API's, MCP's and the
// CLI's outcomes, `qbridge link`) shows and never answers. The role is inside the signature
// only: a link does not say it, and nobody can change it.

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { isIPv6 } from "node:net";
import { dirname, join } from "node:path";
import type { Box } from "../box/box.ts";
import type { LinkRole } from "../slot/judge/proof.ts";

export type { LinkRole } from "../slot/judge/proof.ts";

export const LINK_LIFETIME_MS = 7 * 24 * 3_600_000;

/** The box's link-signing key, made once (32 random bytes, file mode 0600). */
export function loadSecret(box: Box): Buffer {
  const path = join(box.paths.stateDir, "secret");
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    try {
      writeFileSync(path, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  // Only when needed: a read-only box (a read-only mount) refuses even a chmod that changes nothing.
  if ((statSync(path).mode & 0o777) !== 0o600) chmodSync(path, 0o600);
  return Buffer.from(readFileSync(path, "utf8").trim(), "hex");
}

/**
 * What a link opens: one question by id, the questions page, or the stats page; and whom it was
 * made for (`role`; absent: the boxholder).
 */
export type LinkScope = ({ question: string } | { page: "questions" | "stats" }) & {
  role?: LinkRole | undefined;
};

function scopeText(scope: LinkScope): string {
  const opens = "question" in scope ? `q:${scope.question}` : `page:${scope.page}`;
  return scope.role === "asker" ? `asker:${opens}` : opens;
}

function mac(secret: Buffer, scope: LinkScope, expires: number): string {
  return createHmac("sha256", secret)
    .update(`${scopeText(scope)}:${expires}`)
    .digest("base64url");
}

/** The `s` parameter of a link: expiry (seconds, base 36) and signature. */
export function signLink(
  secret: Buffer,
  scope: LinkScope,
  now: Date,
  lifetimeMs = LINK_LIFETIME_MS,
): string {
  const expires = Math.floor((now.getTime() + lifetimeMs) / 1000);
  return `${expires.toString(36)}.${mac(secret, scope, expires)}`;
}

export type LinkCheck =
  | { ok: true; expires: Date; role: LinkRole }
  | { ok: false; reason: "malformed" | "tampered" | "expired" };

/** Whether the signature opens `scope` (for either role), and for whom it was made. */
export function checkLink(
  secret: Buffer,
  scope: LinkScope,
  signature: string | undefined,
  now: Date,
): LinkCheck {
  const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(signature ?? "");
  if (!match) return { ok: false, reason: "malformed" };
  const expires = Number.parseInt(match[1] as string, 36);
  const given = Buffer.from(match[2] as string, "base64url");
  const role = (["boxholder", "asker"] as const).find((r) => {
    const wanted = Buffer.from(mac(secret, { ...scope, role: r }, expires), "base64url");
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  });
  if (!role) return { ok: false, reason: "tampered" };
  if (expires * 1000 <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, expires: new Date(expires * 1000), role };
}

/** The full URL of a signed link, or undefined when no public URL is configured or the box has
 * no link key (a read-only box never served). */
export function linkUrl(
  publicUrl: string | undefined,
  secret: Buffer | undefined,
  scope: LinkScope,
  now: Date,
): string | undefined {
  if (!publicUrl || !secret) return undefined;
  const path = "question" in scope ? `/q/${encodeURIComponent(scope.question)}` : `/${scope.page}`;
  return `${publicUrl}${path}?s=${signLink(secret, scope, now)}`;
}

/** True for an address that means every interface (0.0.0.0, ::): a browser can open no link to it. */
export function isWildcardHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  if (isIPv6(bare)) return new URL(`http://[${bare}]`).hostname === "[::]";
  return bare === "0.0.0.0";
}

/**
 * Why no link to the web page can be made from these settings (it listens on every address
 * and QBRIDGE_PUBLIC_URL is unset), in one sentence; undefined when links can be made.
 */
export function noLinkAddress(web: {
  host: string;
  publicUrl: string | undefined;
}): string | undefined {
  if (web.publicUrl || !isWildcardHost(web.host)) return undefined;
  return `QBRIDGE_PUBLIC_URL must be set for links to the web page: it listens on every address (QBRIDGE_WEB_HOST=${web.host}), which no browser can open; set QBRIDGE_PUBLIC_URL to where the page is reached, e.g. https://q.example.org or http://127.0.0.1:8787`;
}
