// DNS-rebinding protection for the whole web server (/mcp, the API, the pages, /healthz): a
// request must be addressed to this server (its `Host` is the listen address, a loopback name
// with the listen port, or the host of QBRIDGE_PUBLIC_URL), and a page that sends an `Origin`
// must be one of those origins. Anything else gets a 403 with one sentence saying what to set.
// Must run before any route, and must never echo more of a header than a short excerpt.
// A request without a `Host` (an in-process `app.request`) passes the Host check: every
// browser sends one, and only a browser can be rebound. A page's form posts with `Origin: null`
// (the pages send no referrer), so the pages take that origin; /mcp and the API never do.

import type { Context, MiddlewareHandler } from "hono";

/** Where the server listens; the port is the one it really got (port 0 picks a free one). */
export interface ListenAddress {
  host: string;
  port: number;
}

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];
const SHOWN_CHARS = 100;

/** A host as it appears in a Host header: an IPv6 address in brackets. */
function bracketed(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host.toLowerCase();
}

interface OwnAddresses {
  hosts: string[];
  origins: string[];
}

function ownAddresses(listen: ListenAddress, publicUrl: string | undefined): OwnAddresses {
  const names = [...new Set([bracketed(listen.host), ...LOOPBACK])];
  const hosts = names.map((name) => `${name}:${listen.port}`);
  // Port 80 is left out of a Host header, as a browser sends it.
  if (listen.port === 80) hosts.push(...names);
  const origins = hosts.map((host) => `http://${host}`);
  if (publicUrl) {
    const url = new URL(publicUrl);
    hosts.push(url.host);
    origins.push(url.origin);
  }
  return { hosts, origins };
}

function excerpt(text: string): string {
  return text.length <= SHOWN_CHARS ? text : `${text.slice(0, SHOWN_CHARS)}…`;
}

/** /mcp and the API, which answer JSON and which no page of ours calls. */
function forAgents(path: string): boolean {
  return path === "/mcp" || path.startsWith("/mcp/") || path.startsWith("/api/");
}

function refused(c: Context, code: string, message: string): Response {
  return forAgents(c.req.path) ? c.json({ error: { code, message } }, 403) : c.text(message, 403);
}

function ownOrigin(c: Context, origin: string, own: OwnAddresses): boolean {
  if (origin === "null") return !forAgents(c.req.path);
  return own.origins.includes(origin.toLowerCase());
}

/** Refuses requests addressed to another host, or sent by a page of another origin. */
export function ownHostOnly(
  listening: () => ListenAddress,
  publicUrl: string | undefined,
): MiddlewareHandler {
  return async (c, next) => {
    const own = ownAddresses(listening(), publicUrl);
    const host = c.req.header("host")?.toLowerCase();
    if (host !== undefined && !own.hosts.includes(host)) {
      return refused(
        c,
        "ForeignHost",
        `this server answers only requests addressed to ${own.hosts.join(", ")}, not to "${excerpt(host)}": open it at one of those, or set QBRIDGE_PUBLIC_URL to the address it is reached at (a reverse proxy's)`,
      );
    }
    const origin = c.req.header("origin");
    if (origin !== undefined && !ownOrigin(c, origin, own)) {
      return refused(
        c,
        "ForeignOrigin",
        `a page at "${excerpt(origin)}" may not call this server, only pages at ${own.origins.join(", ")}: set QBRIDGE_PUBLIC_URL to the address its own pages are served from`,
      );
    }
    await next();
  };
}
