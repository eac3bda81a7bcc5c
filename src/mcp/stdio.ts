// `qbridge mcp` over stdio: the protocol alone on stdout (logs go to stderr). Runs until the
// client closes stdin or the process is told to stop. Stopping ends every wait at once (its
// call answers `pending`), lets the calls already received finish and send their replies, and
// only then closes: a client that writes its calls and closes stdin still reads every answer,
// and a question being filed is never cut off half-way.

import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { McpDeps } from "./deps.ts";
import { watchOpenRequests } from "./open-requests.ts";
import { createMcpServer } from "./server.ts";

/** What went wrong on the connection, in words for the log (the SDK passes it on bare). */
function connectionTrouble(error: Error): string {
  if (/exceeded maximum size/.test(error.message)) {
    return "a message from the MCP client is over 10 MB: the connection is closed; send less (cut a long input)";
  }
  if (error instanceof SyntaxError || error.name === "ZodError") {
    return "a line from the MCP client could not be read as one JSON-RPC message and was skipped (one message per line)";
  }
  return "the MCP connection failed";
}

export async function serveStdio(deps: McpDeps): Promise<void> {
  const stopping = new AbortController();
  const server = createMcpServer({ ...deps, stopping: stopping.signal });
  server.server.onerror = (error) => deps.logger?.warn({ err: error }, connectionTrouble(error));
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  const requests = watchOpenRequests(transport);
  const stop = () => {
    if (stopping.signal.aborted) return;
    stopping.abort();
    void requests.answered().then(() => server.close());
  };
  process.stdin.once("end", stop);
  // `on`, not `once`: proper-lockfile's exit hook re-raises a signal it finds no other listener
  // for, which would kill the process mid-reply once a lock was ever taken (any ask).
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    await closed;
  } finally {
    process.stdin.off("end", stop);
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}
