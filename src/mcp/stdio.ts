// `qbridge mcp` over stdio: the protocol alone on stdout (logs go to stderr). Runs until the
// client closes stdin or the process is told to stop. Stopping ends every wait at once (its
// call answers `pending`), lets the calls already received finish and send their replies, and
// only then closes: a client that writes its calls and closes stdin still reads every answer,
// and a question being filed is never cut off half-way.

import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { McpDeps } from "./deps.ts";
import { watchOpenRequests } from "./open-requests.ts";
import { createMcpServer } from "./server.ts";

export async function serveStdio(deps: McpDeps): Promise<void> {
  const stopping = new AbortController();
  const server = createMcpServer({ ...deps, stopping: stopping.signal });
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
