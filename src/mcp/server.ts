// The MCP server of a box: one McpServer with the question tools, for any transport (stdio in
// `qbridge mcp`, Streamable HTTP at /mcp on the web server). Built by a factory so each HTTP
// request (stateless) and each stdio process gets its own; the tasks they hand out are kept in
// the box (task-store.ts), so any later request or process can follow them.

import { readFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { askResult, registerAskTool } from "./ask-tool.ts";
import type { McpDeps } from "./deps.ts";
import { registerExtendTool } from "./extend-tool.ts";
import { registerJobTool } from "./job-tool.ts";
import { permissionResult, registerPermissionTool } from "./permission-tool.ts";
import { registerReadTools } from "./read-tools.ts";
import { QuestionTaskStore, TASK_POLL_MS } from "./task-store.ts";
import { registerWithdrawTool } from "./withdraw-tool.ts";

export type { McpChange, McpDeps } from "./deps.ts";

const INSTRUCTIONS = `question-bridge lets you ask your owner (the human you work for) what you cannot settle alone. Ask one decision at a time with ask_human, with a memo that lets them answer without looking anything up. Answers arrive when the owner has time: a result with status "pending" means nobody has answered yet; it is never a refusal and never consent. Do the safe thing meanwhile and read the answer later with get_answer; withdraw a question that no longer needs an answer.`;

/** The Tasks extension (2025-11-25): ask_human and request_permission may run as tasks, which
 * can be listed and cancelled (a cancel withdraws the question). */
const TASKS = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** The package version, from src/mcp/ (sources) or from the bundle in dist/. */
function version(): string {
  for (const up of ["../../package.json", "../package.json"]) {
    try {
      const text = readFileSync(new URL(up, import.meta.url), "utf8");
      const parsed = JSON.parse(text) as { name?: string; version?: string };
      if (parsed.name === "question-bridge" && parsed.version) return parsed.version;
    } catch {
      // not at this level; try the next
    }
  }
  return "unknown";
}

export function createMcpServer(deps: McpDeps): McpServer {
  const tasks = new QuestionTaskStore(deps, {
    ask_human: askResult,
    request_permission: permissionResult,
  });
  const server = new McpServer(
    { name: "question-bridge", version: version() },
    {
      instructions: INSTRUCTIONS,
      capabilities: { tools: {}, tasks: TASKS },
      taskStore: tasks,
      defaultTaskPollInterval: TASK_POLL_MS,
    },
  );
  registerAskTool(server, deps, tasks);
  registerReadTools(server, deps);
  registerPermissionTool(server, deps, tasks);
  registerWithdrawTool(server, deps);
  registerExtendTool(server, deps);
  registerJobTool(server, deps);
  // The tools never change while a client is connected (stdio or a stateless POST), so no
  // list_changed is ever sent: the SDK's default `listChanged: true` would promise one.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}
