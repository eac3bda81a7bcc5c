// What the web app is built from: the core it answers through, the config, the link key, a
// logger, and an optional listener told after each change the web committed (an answer, a dismissal,
// a question asked or withdrawn over MCP), so the composition root can update a chat message and
// move the slot on.

import type { Logger } from "pino";
import type { Config } from "../config.ts";
import type { Core } from "../questions/core.ts";
import type { OutcomeContext, OutcomeLink } from "../questions/outcome.ts";
import type { HealthProbe } from "./health.ts";
import type { ListenAddress } from "./own-host.ts";

export interface WebTransition {
  id: string;
  /** `later`: the boxholder put a question off on its page (the ledger, not the card, changed). */
  action: "answered" | "dismissed" | "asked" | "withdrawn" | "extended" | "later";
  via: "web" | "api" | "mcp";
}

export type TransitionListener = (event: WebTransition) => void | Promise<void>;

/** What the web hands the MCP endpoint for one request: the core, links to its pages, and a
 * listener told after a tool changed the box. */
export interface McpRequestDeps {
  core: Core;
  timeZone: Config;
  heldUntil: OutcomeContext["heldUntil"];
  logger?: Logger | undefined;
  link: OutcomeLink;
  onChange: (change: { id: string; action: "asked" | "withdrawn" | "extended" }) => Promise<void>;
}

/** The MCP endpoint (src/mcp/http.ts) the composition root plugs in at /mcp: the web never
 * imports the MCP adapter itself. */
export type McpEndpoint = (request: Request, deps: McpRequestDeps) => Promise<Response>;

export interface WebDeps {
  core: Core;
  config: Config;
  /** The link key; none on a read-only box never served: the pages are off, the API and /mcp
   * give outcomes without links. */
  secret: Buffer | undefined;
  logger?: Logger | undefined;
  onTransition?: TransitionListener | undefined;
  /** The MCP endpoint served at /mcp; without one /mcp answers that MCP is not served here. */
  mcp?: McpEndpoint | undefined;
  /** What /healthz shows; the service passes its own so its parts (a bridge's) appear. */
  health?: HealthProbe | undefined;
  /** Where the server really listens, once it does: requests must be addressed there (or to
   * QBRIDGE_PUBLIC_URL); else the configured address. */
  listening?: (() => ListenAddress) | undefined;
}

/** What the signed pages are built from: they exist only when the box has a link key. */
export type SignedDeps = WebDeps & { secret: Buffer };

/** Tells the listener, never letting its failure undo or fail the committed transition. */
export async function announce(deps: WebDeps, event: WebTransition): Promise<void> {
  if (!deps.onTransition) return;
  try {
    await deps.onTransition(event);
  } catch (error) {
    deps.logger?.warn({ err: error, ...event }, "the transition listener failed");
  }
}
