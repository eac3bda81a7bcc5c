// The MCP endpoint over Streamable HTTP, stateless: each request gets its own server and
// transport, so nothing is kept between requests and any number of clients may call at once.
// The composition root hands it to the web app, which serves it at /mcp behind its bearer
// token; a client that goes away (the request aborts) closes its server and ends its wait.

import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { McpDeps } from "./deps.ts";
import { createMcpServer } from "./server.ts";

const MCP_BODY_LIMIT_BYTES = 1024 * 1024;

/** Answers one MCP request (a POST) with the tools built from `deps`. */
export async function serveMcp(request: Request, deps: McpDeps): Promise<Response> {
  const server = createMcpServer(deps);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    maxRequestBodySize: MCP_BODY_LIMIT_BYTES,
  });
  await server.connect(transport);
  request.signal.addEventListener("abort", () => void server.close(), { once: true });
  return transport.handleRequest(request);
}
