// JSON-RPC as a raw MCP client writes it on qbridge mcp's stdin: one message per line, opened
// with the initialize request every session starts with.

/** Messages as lines for stdin. */
export const jsonLines = (messages: object[]) => messages.map((m) => JSON.stringify(m)).join("\n");

/** The initialize request of a client named `name`. */
export function initializeAs(name: string) {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name, version: "1" },
    },
  };
}
