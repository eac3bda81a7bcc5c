// `qbridge mcp` over stdio: the protocol alone on stdout (logs go to stderr). Runs until the
// client closes stdin or the process is told to stop.

import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { McpDeps } from "./deps.ts";
import { createMcpServer } from "./server.ts";

export async function serveStdio(deps: McpDeps): Promise<void> {
  const server = createMcpServer(deps);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  const stop = () => void server.close();
  process.stdin.once("end", stop);
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await closed;
  } finally {
    process.stdin.off("end", stop);
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}
