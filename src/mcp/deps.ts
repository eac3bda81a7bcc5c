// What the MCP tools are built from: the core they ask and read through, a maker of fresh
// signed links, and an optional listener told after a tool changed the box (so the serving
// process presents a new question or moves its slot at once instead of at its next look).

import type { Logger } from "pino";
import type { Core } from "../questions/core.ts";
import type { OutcomeContext, OutcomeLink } from "../questions/outcome.ts";
import type { ZoneSource } from "../questions/stats/stats-clock.ts";

export interface McpChange {
  id: string;
  action: "asked" | "withdrawn" | "extended";
}

export interface McpDeps {
  core: Core;
  /** The box's time zone (QBRIDGE_TIMEZONE), or the settings that know it: the hour an ask's
   * expected wait is looked up in. */
  timeZone: string | ZoneSource;
  link?: OutcomeLink | undefined;
  /** Until when a pending question waits to be shown (quiet hours, "Later"): `heldUntil`. */
  heldUntil?: OutcomeContext["heldUntil"];
  onChange?: ((change: McpChange) => void | Promise<void>) | undefined;
  logger?: Pick<Logger, "warn" | "error"> | undefined;
  /** Aborted when the server stops (stdio: stdin closed, SIGTERM): every wait ends now, and its
   * call answers with the outcome at that moment. */
  stopping?: AbortSignal | undefined;
  /** Seconds between progress notifications while a tool waits (default 5; at most 10). */
  tickSeconds?: number | undefined;
}

/** Tells the listener, never letting its failure fail the tool call that committed. */
export async function tellChange(deps: McpDeps, change: McpChange): Promise<void> {
  if (!deps.onChange) return;
  try {
    await deps.onChange(change);
  } catch (error) {
    deps.logger?.warn({ err: error, ...change }, "the MCP change listener failed");
  }
}
