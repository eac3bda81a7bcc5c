// Waiting inside a tool call (up to an hour), with progress notifications so a client that
// resets its request timeout on progress never times out: one as the wait starts, then one
// every few seconds (at most 10 s apart). The wait ends early when the client cancels or disconnects, or when
// the server stops.
// A wait that ends unanswered returns `pending`; it is never an error.

import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { QuestionOutcome } from "../questions/outcome.ts";
import { waitForOutcome } from "../questions/waiter.ts";
import type { McpDeps } from "./deps.ts";

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The longest wait one tool call takes: an hour, for clients that keep waiting on progress. */
export const MAX_TOOL_WAIT_SECONDS = 3_600;
/** A wait that fits inside the common fixed 60 s tool timeout (Codex's default). */
export const SHORT_TOOL_WAIT_SECONDS = 50;

const DEFAULT_TICK_SECONDS = 5;
const MAX_TICK_SECONDS = 10;

function progressSender(
  extra: ToolExtra,
  id: string,
): ((waited: number, of: number) => void) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let last = -1;
  return (waited, of) => {
    // Progress must increase with each notification.
    const progress = Math.max(waited, last + 1);
    last = progress;
    extra
      .sendNotification({
        method: "notifications/progress",
        params: {
          progressToken: token,
          progress,
          total: of,
          message: `no answer to ${id} yet; waiting (${waited} s of ${of} s)`,
        },
      })
      .catch(() => undefined);
  };
}

export async function waitReporting(
  deps: McpDeps,
  id: string,
  seconds: number,
  extra: ToolExtra,
): Promise<QuestionOutcome> {
  const report = seconds > 0 ? progressSender(extra, id) : undefined;
  report?.(0, seconds);
  const tick = Math.min(MAX_TICK_SECONDS, deps.tickSeconds ?? DEFAULT_TICK_SECONDS);
  // The call's own signal or the server's stop, whichever comes first. A plain controller, not
  // AbortSignal.any: node 20 holds that one's sources weakly (see webhooks/delivery.ts).
  const ended = new AbortController();
  const end = () => ended.abort();
  const sources = [extra.signal, deps.stopping].filter((s): s is AbortSignal => s !== undefined);
  for (const source of sources) source.addEventListener("abort", end, { once: true });
  if (sources.some((source) => source.aborted)) end();
  try {
    return await waitForOutcome(deps.core, id, seconds, {
      signal: ended.signal,
      onTick: report,
      tickSeconds: tick,
      link: deps.link,
      heldUntil: deps.heldUntil,
    });
  } finally {
    for (const source of sources) source.removeEventListener("abort", end);
  }
}
