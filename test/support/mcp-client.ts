// The MCP tools as an agent's client sees them, in process: the SDK's client linked in memory
// to a server made with `deps` (the box, the zone, what holds a question), so a test calls tools
// exactly as over stdio or HTTP without a process or a port.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpDeps } from "../../src/mcp/deps.ts";
import { createMcpServer } from "../../src/mcp/server.ts";

/** Every tool the server lists, by name, sorted. */
export const MCP_TOOL_NAMES = [
  "ask_human",
  "extend_question",
  "get_answer",
  "get_job",
  "list_questions",
  "mark_job_done",
  "request_permission",
  "withdraw_question",
];

export async function mcpClientOn(deps: McpDeps): Promise<Client> {
  const server = createMcpServer(deps);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}
