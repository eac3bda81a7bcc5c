// The MCP endpoint over Streamable HTTP, stateless: each request gets its own server and
// transport, so nothing is kept between requests and any number of clients may call at once.
// The composition root hands it to the web app, which serves it at /mcp behind its bearer
// token; a client that goes away (the request aborts) closes its server and ends its wait.

import type { McpDeps } from "./deps.ts";

const MCP_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The MCP SDK (with its JSON-schema and validation libraries) is loaded with the first MCP
 * request, not with the service: a service nobody calls over MCP stays smaller.
 */
function loadMcp() {
  return Promise.all([
    import("./server.ts"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
  ]);
}

let mcp: ReturnType<typeof loadMcp> | undefined;

/** Answers one MCP request (a POST) with the tools built from `deps`. */
export async function serveMcp(request: Request, deps: McpDeps): Promise<Response> {
  mcp ??= loadMcp();
  const [{ createMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await mcp;
  const server = createMcpServer(deps);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    maxRequestBodySize: MCP_BODY_LIMIT_BYTES,
  });
  await server.connect(transport);
  request.signal.addEventListener("abort", () => void server.close(), { once: true });
  return transport.handleRequest(request);
}
