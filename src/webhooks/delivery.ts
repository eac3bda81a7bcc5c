// Sends what the outbox owes: each outcome POSTed to its receiver, signed
// (`X-Qbridge-Signature: sha256=<hex HMAC-SHA256 of the body>`) with an `Idempotency-Key` of
// "<question id>:<status>", until a 2xx or until the give-up window has passed. Tries wait
// longer each time (1 s, 2 s, 4 s, ... at most an hour). Only http(s); a redirect is followed
// only to the same origin, each hop checked again; 5 s per try. Each try resolves the host and
// refuses a private, loopback or metadata address (pinned-request.ts): a refused delivery gives
// up at once, its reason in the ledger for doctor. Runs in `qbridge serve`; the rows live in the
// ledger, so a restart loses nothing. Never logs the secret, the body, or more of a URL than its
// origin.

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
import { type Resolve, systemResolve } from "./pinned-request.ts";
import { receiverOf } from "./receiver-url.ts";
import { MAX_REDIRECTS, type TrySettings, tryOnce } from "./try.ts";

export { IDEMPOTENCY_HEADER, SIGNATURE_HEADER, signBody } from "./try.ts";

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

/** What every try of one sender needs: its options with their defaults, and its stop. */
interface Sending extends TrySettings {
  core: Core;
  giveUpAfterMs: number;
  firstRetryMs: number;
  maxRetryMs: number;
  logger: WebhookSenderOptions["logger"];
}

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const stopping = new AbortController();
  const sending: Sending = {
    core: options.core,
    secret: options.secret,
    giveUpAfterMs: options.giveUpAfterMs,
    timeoutMs: options.timeoutMs ?? 5_000,
    firstRetryMs: options.firstRetryMs ?? 1_000,
    maxRetryMs: options.maxRetryMs ?? 3_600_000,
    resolve: options.resolve ?? systemResolve,
    logger: options.logger,
    stopping: stopping.signal,
    trustedUrl: options.core.webhooks?.url,
  };
  const pollMs = options.pollMs ?? 1_000;
  const deliverDue = coalesced(() => drain(sending));
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;

  function schedule(): void {
    if (stopping.signal.aborted) return;
    clearTimeout(timer);
    timer = setTimeout(tick, nextWait(options.core, pollMs));
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
        if (event.root === options.core.box.paths.root) void deliverDue().catch(() => undefined);
      });
      schedule();
    },
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      unsubscribe?.();
      await deliverDue.running()?.catch(() => undefined);
    },
  };
}

/**
 * Runs `run` at most once at a time: a call while it runs gets the running one's result and
 * asks for one more run after it, so nothing owed meanwhile waits for the next poll.
 */
function coalesced(run: () => Promise<number>) {
  let running: Promise<number> | undefined;
  let again = false;
  const call = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      try {
        do {
          again = false;
          total += await run();
        } while (again);
        return total;
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  return Object.assign(call, { running: () => running });
}

/** How long until the outbox is looked at again: the next due try, at most `pollMs`. */
function nextWait(core: Core, pollMs: number): number {
  try {
    const next = nextDueAt(core.ledger);
    if (next !== undefined) return Math.max(0, Math.min(pollMs, next - Date.now()));
  } catch {
    // A ledger that cannot be read now is looked at again next time.
  }
  return pollMs;
}

/** Sends every delivery due now, and what came due meanwhile; how many were delivered. */
async function drain(s: Sending): Promise<number> {
  let delivered = 0;
  for (;;) {
    const due = dueDeliveries(s.core.ledger, Date.now());
    if (due.length === 0 || s.stopping.aborted) return delivered;
    const results = await Promise.all(due.map((delivery) => deliverOne(s, delivery)));
    delivered += results.filter(Boolean).length;
  }
}

/** One try of one delivery, leased so a second sender on this ledger does not send it too. */
async function deliverOne(s: Sending, delivery: Delivery): Promise<boolean> {
  const { core } = s;
  const lease = Date.now() + s.timeoutMs * (MAX_REDIRECTS + 1) + 1_000;
  if (!claimDelivery(core.ledger, delivery.seq, delivery.nextTryAt, lease)) return false;
  const result = await tryOnce(s, delivery);
  if (s.stopping.aborted) {
    // Abandoned by a stop: owed as before, not counted as a try.
    markFailed(core.ledger, delivery.seq, delivery.lastError ?? "", Date.now(), false);
    return false;
  }
  const at = core.box.clock.iso();
  const receiver = receiverOf(delivery.url);
  if (result.ok) {
    markDelivered(core.ledger, delivery.seq, at);
    s.logger?.info({ key: delivery.key, receiver }, "webhook delivered");
    return true;
  }
  const age = core.box.clock.now().getTime() - new Date(delivery.createdAt).getTime();
  if (age >= s.giveUpAfterMs || result.refused) {
    markGivenUp(core.ledger, delivery.seq, at, result.error);
    s.logger?.warn(
      { key: delivery.key, receiver, error: result.error, tries: delivery.tries + 1 },
      "webhook gave up (qbridge doctor lists it)",
    );
    return false;
  }
  const pause = backoffDelay(delivery.tries, { firstMs: s.firstRetryMs, maxMs: s.maxRetryMs });
  markFailed(core.ledger, delivery.seq, result.error, Date.now() + pause);
  return false;
}
