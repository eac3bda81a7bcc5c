// One try of one delivery: the signed POST to its receiver, pinned to the address checked at
// send time (pinned-request.ts), following a redirect only to the same origin, each hop checked
// again, given up after the try's time limit or at the sender's stop.

import { createHmac } from "node:crypto";
import type { Delivery } from "./outbox.ts";
import { pinnedPost, RefusedReceiver, type Resolve } from "./pinned-request.ts";
import { describeFailure, receiverOf, withoutCredentials } from "./receiver-url.ts";

export const SIGNATURE_HEADER = "X-Qbridge-Signature";
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const MAX_REDIRECTS = 3;

/** The signature header's value for `body`: what a receiver recomputes to verify it. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export type TryResult = { ok: true } | { ok: false; error: string; refused?: true };

/** What a try needs from its sender. */
export interface TrySettings {
  secret: string;
  timeoutMs: number;
  resolve: Resolve;
  /** Aborted when the sender stops: a try in flight is abandoned. */
  stopping: AbortSignal;
  /** The box-wide receiver, the operator's own setting: its address is not checked. */
  trustedUrl: string | undefined;
}

/** One delivery's POST, following same-origin redirects (each hop checked and pinned anew). */
export async function tryOnce(s: TrySettings, delivery: Delivery): Promise<TryResult> {
  let url = delivery.url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (!/^https?:\/\//i.test(url))
      return { ok: false, error: `not an http(s) URL (${receiverOf(url)})` };
    let response: Awaited<ReturnType<typeof post>>;
    try {
      response = await post(s, url, delivery);
    } catch (error) {
      if (error instanceof RefusedReceiver)
        return { ok: false, error: error.message, refused: true };
      return { ok: false, error: describeFailure(error, s.timeoutMs) };
    }
    if (response.status >= 200 && response.status < 300) return { ok: true };
    const { location } = response;
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, url);
      if (next.origin !== new URL(url).origin) {
        return { ok: false, error: `redirected to another host (${next.host}): not followed` };
      }
      url = next.href;
      continue;
    }
    return { ok: false, error: `HTTP ${response.status}` };
  }
  return { ok: false, error: `more than ${MAX_REDIRECTS} redirects` };
}

/**
 * One request, given up after `timeoutMs` or at a stop. The timer is a plain one, held until
 * the request ends: node 20's AbortSignal.any holds its sources weakly and
 * AbortSignal.timeout's timer holds its signal weakly, so a garbage collection during the
 * request would drop the timeout and a receiver that never answered would hold the sender.
 */
async function post(s: TrySettings, url: string, delivery: Delivery) {
  const request = new AbortController();
  const timer = setTimeout(
    () => request.abort(new DOMException("the receiver did not answer", "TimeoutError")),
    s.timeoutMs,
  );
  const onStop = () => request.abort(s.stopping.reason);
  s.stopping.addEventListener("abort", onStop, { once: true });
  if (s.stopping.aborted) onStop();
  const { address, authorization } = withoutCredentials(url);
  try {
    return await pinnedPost({
      url: address,
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "question-bridge",
        [SIGNATURE_HEADER]: signBody(s.secret, delivery.body),
        [IDEMPOTENCY_HEADER]: delivery.key,
        ...(authorization ? { Authorization: authorization } : {}),
      },
      body: delivery.body,
      signal: request.signal,
      resolve: s.resolve,
      // The box-wide receiver is the operator's own setting: only callbacks are checked.
      trusted: delivery.url === s.trustedUrl,
    });
  } finally {
    clearTimeout(timer);
    s.stopping.removeEventListener("abort", onStop);
  }
}
