// One webhook POST to a receiver, checked after DNS and pinned to the address checked: the host
// is resolved (every address), refused when any address is one a callback may not reach
// (src/card/callback-address.ts, unless QBRIDGE_WEBHOOK_ALLOW names it), and the connection
// goes to exactly the first address checked, never to a second lookup's answer (a name that
// resolves to a public address at the check and to a private one at the connect). The request
// keeps the host's name for the Host header and for TLS, whose certificate is still verified
// against that name. Nothing here retries or follows a redirect: delivery.ts decides.

import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import {
  bareHost,
  refusedAddresses,
  refusedReceiver,
  webhookAllowList,
} from "../card/callback-address.ts";

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to (node's resolver by default; tests pass their own). */
export type Resolve = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

/** A receiver refused by the send-time check: not retried, since trying again changes nothing. */
export class RefusedReceiver extends Error {
  override name = "RefusedReceiver";
}

export interface PinnedPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  resolve: Resolve;
  /** The one URL sent without the check: the box-wide receiver its operator configured. */
  trusted: boolean;
}

/** `work`, or the signal's reason once it aborts first: a resolver that hangs ends with the try. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The address the request is pinned to, after the check; the host's name when trusted. */
async function checkedAddress(target: URL, post: PinnedPost): Promise<ResolvedAddress | undefined> {
  const host = bareHost(target.hostname);
  const allow = webhookAllowList();
  if (!post.trusted) {
    const refused = refusedReceiver(target.href, allow);
    if (refused !== undefined) throw new RefusedReceiver(`refused: ${refused}`);
  }
  const family = isIP(host);
  if (family !== 0) return { address: host, family };
  const addresses = await untilAborted(post.resolve(host), post.signal);
  if (addresses.length === 0) throw new Error(`${host} resolves to no address`);
  if (!post.trusted) {
    const refused = refusedAddresses(
      host,
      addresses.map((a) => a.address),
      allow,
    );
    if (refused !== undefined) throw new RefusedReceiver(`refused: ${refused}`);
  }
  return addresses[0];
}

/** A lookup that answers every question with the checked address, and nothing else. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_host, options, callback) => {
    const answer = pinned as { address: string; family: number };
    if ((options as { all?: boolean }).all) {
      (callback as (e: null, a: ResolvedAddress[]) => void)(null, [answer]);
    } else {
      callback(null, answer.address, answer.family);
    }
  };
}

/** POSTs once; resolves with the status and the Location header, the body left unread. */
export async function pinnedPost(
  post: PinnedPost,
): Promise<{ status: number; location: string | undefined }> {
  const target = new URL(post.url);
  const pinned = await checkedAddress(target, post);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      {
        method: "POST",
        protocol: target.protocol,
        hostname: bareHost(target.hostname),
        port: target.port || undefined,
        path: `${target.pathname}${target.search}`,
        headers: { ...post.headers, "Content-Length": String(Buffer.byteLength(post.body)) },
        lookup: pinned ? pinnedLookup(pinned) : undefined,
        signal: post.signal,
        agent: false,
      },
      (response: IncomingMessage) => {
        response.resume();
        const location = response.headers.location;
        resolve({ status: response.statusCode ?? 0, location });
      },
    );
    request.on("error", reject);
    request.end(post.body);
  });
}
