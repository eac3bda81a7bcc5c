// MCP at /mcp, behind the same bearer token as the JSON API. The endpoint itself (Streamable
// HTTP, stateless) is the MCP adapter's, plugged in by the composition root; this route gates
// it and hands it what only the web knows: links to its pages and the change listener.

import { Hono } from "hono";
import { heldUntilOf } from "../slot/attention/held-until.ts";
import { requireBearer } from "./bearer.ts";
import { announce, type McpEndpoint, type WebDeps } from "./deps.ts";
import { linkUrl } from "./links.ts";

function jsonRpcError(message: string, status: 404 | 405, headers?: Record<string, string>) {
  return Response.json(
    { jsonrpc: "2.0", error: { code: -32000, message }, id: null },
    { status, ...(headers ? { headers } : {}) },
  );
}

export function mcpRoute(deps: WebDeps, endpoint: McpEndpoint | undefined): Hono {
  const route = new Hono();
  if (!endpoint) {
    route.all("/", () => jsonRpcError("this web server was started without MCP", 404));
    return route;
  }
  route.use("*", requireBearer(deps.config.apiToken));
  route.post("/", (c) =>
    endpoint(c.req.raw, {
      core: deps.core,
      timeZone: deps.config,
      heldUntil: heldUntilOf(deps.core, deps.config.attention),
      logger: deps.logger,
      link: (id) =>
        linkUrl(
          deps.config.web.publicUrl,
          deps.secret,
          // Handed to an asker: the page shows the question and answers nothing.
          { question: id, role: "asker" },
          deps.core.box.clock.now(),
        ),
      // The serving process's slot presents a new question, or closes a withdrawn one, at once.
      onChange: (change) => announce(deps, { ...change, via: "mcp" }),
    }),
  );
  route.on(["GET", "DELETE"], "/", () =>
    jsonRpcError("this MCP endpoint is stateless: send requests with POST", 405, { Allow: "POST" }),
  );
  return route;
}
