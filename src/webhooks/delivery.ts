// Sends what the outbox owes: each outcome POSTed to its receiver, signed
// (`X-Qbridge-Signature: sha256=<hex HMAC-SHA256 of the body>`) with an `Idempotency-Key` of
// "<question id>:<status>", until a 2xx or until the give-up window has passed. Tries wait
// longer each time (1 s, 2 s, 4 s, ... at most an hour). Only http(s); a redirect is followed
// only to the same origin, each hop checked again; 5 s per try. Each try resolves the host and
// refuses a private, loopback or metadata address (pinned-request.ts): a refused delivery gives
// up at once, its reason in the ledger for doctor. Runs in `qbridge serve`; the rows live in the
// ledger, so a restart loses nothing. Never logs the secret, the body, or more of a URL than its
// origin.

import { createHmac } from "node:crypto";
import { backoffDelay } from "../backoff.ts";
import type { Core } from "../questions/core.ts";
import { onQuestionTransitioned } from "../questions/events.ts";
import {
  claimDelivery,
  type Delivery,
  dueDeliveries,
  markDelivered,
  markFailed,
  markGivenUp,
  nextDueAt,
} from "./outbox.ts";
import { pinnedPost, RefusedReceiver, type Resolve, systemResolve } from "./pinned-request.ts";
import { describeFailure, receiverOf, withoutCredentials } from "./receiver-url.ts";

export const SIGNATURE_HEADER = "X-Qbridge-Signature";
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
const MAX_REDIRECTS = 3;

/** The signature header's value for `body`: what a receiver recomputes to verify it. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export interface WebhookSenderOptions {
  core: Core;
  secret: string;
  giveUpAfterMs: number;
  /** Per try (default 5 s). */
  timeoutMs?: number;
  /** The pause after the first failure; it doubles each time (default 1 s). */
  firstRetryMs?: number;
  /** The longest pause between tries (default 1 h). */
  maxRetryMs?: number;
  /** How often the outbox is looked at for what other processes owed (default 1 s). */
  pollMs?: number;
  logger?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** How a receiver's host is resolved at send time (node's resolver by default). */
  resolve?: Resolve;
}

export interface WebhookSender {
  /** Sends what is due now; resolves with how many were delivered. */
  deliverDue(): Promise<number>;
  start(): void;
  /** Stops; a try in flight is abandoned and stays owed. */
  stop(): Promise<void>;
}

type TryResult = { ok: true } | { ok: false; error: string; refused?: true };

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const { core, secret } = options;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const firstRetryMs = options.firstRetryMs ?? 1_000;
  const maxRetryMs = options.maxRetryMs ?? 3_600_000;
  const pollMs = options.pollMs ?? 1_000;
  const resolve = options.resolve ?? systemResolve;
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  let draining: Promise<number> | undefined;
  let again = false;

  /**
   * One request, given up after `timeoutMs` or at a stop. The timer is a plain one, held until
   * the request ends: node 20's AbortSignal.any holds its sources weakly and
   * AbortSignal.timeout's timer holds its signal weakly, so a garbage collection during the
   * request dropped the timeout and a receiver that never answered held the sender for good.
   */
  async function post(url: string, delivery: Delivery) {
    const request = new AbortController();
    const timer = setTimeout(
      () => request.abort(new DOMException("the receiver did not answer", "TimeoutError")),
      timeoutMs,
    );
    const onStop = () => request.abort(stopping.signal.reason);
    stopping.signal.addEventListener("abort", onStop, { once: true });
    if (stopping.signal.aborted) onStop();
    const { address, authorization } = withoutCredentials(url);
    try {
      return await pinnedPost({
        url: address,
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "question-bridge",
          [SIGNATURE_HEADER]: signBody(secret, delivery.body),
          [IDEMPOTENCY_HEADER]: delivery.key,
          ...(authorization ? { Authorization: authorization } : {}),
        },
        body: delivery.body,
        signal: request.signal,
        resolve,
        // The box-wide receiver is the operator's own setting: only callbacks are checked.
        trusted: delivery.url === core.webhooks?.url,
      });
    } finally {
      clearTimeout(timer);
      stopping.signal.removeEventListener("abort", onStop);
    }
  }

  async function tryOnce(delivery: Delivery): Promise<TryResult> {
    let url = delivery.url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (!/^https?:\/\//i.test(url))
        return { ok: false, error: `not an http(s) URL (${receiverOf(url)})` };
      let response: Awaited<ReturnType<typeof post>>;
      try {
        response = await post(url, delivery);
      } catch (error) {
        if (error instanceof RefusedReceiver)
          return { ok: false, error: error.message, refused: true };
        return { ok: false, error: describeFailure(error, timeoutMs) };
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

  function pauseAfter(tries: number): number {
    return backoffDelay(tries - 1, { firstMs: firstRetryMs, maxMs: maxRetryMs });
  }

  async function deliverOne(delivery: Delivery): Promise<boolean> {
    // Leased for one try's length, so a second sender on this ledger does not send it too.
    const lease = Date.now() + timeoutMs * (MAX_REDIRECTS + 1) + 1_000;
    if (!claimDelivery(core.ledger, delivery.seq, delivery.nextTryAt, lease)) return false;
    const result = await tryOnce(delivery);
    if (stopping.signal.aborted) {
      // Abandoned by a stop: owed as before, not counted as a try.
      markFailed(core.ledger, delivery.seq, delivery.lastError ?? "", Date.now(), false);
      return false;
    }
    const at = core.box.clock.iso();
    if (result.ok) {
      markDelivered(core.ledger, delivery.seq, at);
      options.logger?.info(
        { key: delivery.key, receiver: receiverOf(delivery.url) },
        "webhook delivered",
      );
      return true;
    }
    const age = core.box.clock.now().getTime() - new Date(delivery.createdAt).getTime();
    if (age >= options.giveUpAfterMs || result.refused) {
      markGivenUp(core.ledger, delivery.seq, at, result.error);
      options.logger?.warn(
        {
          key: delivery.key,
          receiver: receiverOf(delivery.url),
          error: result.error,
          tries: delivery.tries + 1,
        },
        "webhook gave up (qbridge doctor lists it)",
      );
      return false;
    }
    markFailed(
      core.ledger,
      delivery.seq,
      result.error,
      Date.now() + pauseAfter(delivery.tries + 1),
    );
    return false;
  }

  async function drain(): Promise<number> {
    let delivered = 0;
    for (;;) {
      const due = dueDeliveries(core.ledger, Date.now());
      if (due.length === 0 || stopping.signal.aborted) return delivered;
      const results = await Promise.all(due.map(deliverOne));
      delivered += results.filter(Boolean).length;
    }
  }

  function deliverDue(): Promise<number> {
    if (draining) {
      again = true;
      return draining;
    }
    draining = (async () => {
      let delivered = 0;
      try {
        do {
          again = false;
          delivered += await drain();
        } while (again && !stopping.signal.aborted);
        return delivered;
      } finally {
        draining = undefined;
      }
    })();
    return draining;
  }

  function schedule(): void {
    if (stopping.signal.aborted) return;
    clearTimeout(timer);
    let wait = pollMs;
    try {
      const next = nextDueAt(core.ledger);
      if (next !== undefined) wait = Math.max(0, Math.min(pollMs, next - Date.now()));
    } catch {
      // A ledger that cannot be read now is looked at again next time.
    }
    timer = setTimeout(tick, wait);
  }

  function tick(): void {
    deliverDue()
      .catch((error) => options.logger?.warn({ err: error }, "webhook delivery failed"))
      .finally(schedule);
  }

  return {
    deliverDue,
    start() {
      unsubscribe = onQuestionTransitioned((event) => {
        if (event.root === core.box.paths.root) void deliverDue().catch(() => undefined);
      });
      schedule();
    },
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      unsubscribe?.();
      await draining?.catch(() => undefined);
    },
  };
}
