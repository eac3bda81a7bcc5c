// Streamable HTTP for MCP at /mcp, behind the same bearer token as the JSON API. Stateless:
// each POST gets its own server and transport, so nothing is kept between requests and any
// number of clients may call at once. Progress notifications of a waiting tool call travel on
// that POST's event stream; a client that goes away aborts its wait.

import { Hono } from "hono";
import { heldUntilOf } from "../slot/attention/held-until.ts";
import { requireBearer } from "./bearer.ts";
import { announce, type WebDeps } from "./deps.ts";
import { linkUrl } from "./links.ts";

const MCP_BODY_LIMIT_BYTES = 1024 * 1024;

function methodNotAllowed(): Response {
  return Response.json(
    {
      jsonrpc: "2.0",
      error: { code: -32000, message: "this MCP endpoint is stateless: send requests with POST" },
      id: null,
    },
    { status: 405, headers: { Allow: "POST" } },
  );
}

/**
 * The MCP SDK (with its JSON-schema and validation libraries) is loaded with the first MCP
 * request, not with the service: a service nobody calls over MCP stays smaller.
 */
function loadMcp() {
  return Promise.all([
    import("../mcp/server.ts"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
  ]);
}

export function mcpRoute(deps: WebDeps): Hono {
  const route = new Hono();
  route.use("*", requireBearer(deps.config.apiToken));
  let mcp: ReturnType<typeof loadMcp> | undefined;

  route.post("/", async (c) => {
    mcp ??= loadMcp();
    const [{ createMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await mcp;
    const server = createMcpServer({
      core: deps.core,
      timeZone: deps.config,
      heldUntil: heldUntilOf(deps.core, deps.config.attention),
      logger: deps.logger,
      link: (id) =>
        linkUrl(
          deps.config.web.publicUrl,
          deps.secret,
          { question: id },
          deps.core.box.clock.now(),
        ),
      // The serving process's slot presents a new question, or closes a withdrawn one, at once.
      onChange: (change) => announce(deps, { ...change, via: "mcp" }),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      maxRequestBodySize: MCP_BODY_LIMIT_BYTES,
    });
    await server.connect(transport);
    c.req.raw.signal.addEventListener("abort", () => void server.close(), { once: true });
    return transport.handleRequest(c.req.raw);
  });
  route.on(["GET", "DELETE"], "/", () => methodNotAllowed());
  return route;
}
