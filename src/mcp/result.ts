// How a tool's answer goes back: the outcome as structured content and, for clients that read
// only text, the same JSON as text. Errors of the core become a tool error whose text is the
// error's own sentence (an unknown id points at list_questions, not at a command a model cannot
// run); anything unexpected is logged and reported without internals.

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { QbridgeError, QuestionNotFound } from "../errors.ts";
import type { McpDeps } from "./deps.ts";

export function structuredResult(value: Record<string, unknown>): CallToolResult {
  return {
    structuredContent: value,
    content: [{ type: "text", text: JSON.stringify(value) }],
  };
}

export function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}

function notFound(error: QuestionNotFound): string {
  const closest = error.near.length ? `; the closest: ${error.near.join(", ")}` : "";
  return `no question "${error.id}" in this box${closest}: call list_questions with status "all" to see the ids`;
}

/** The tool error a failure becomes: the core's named errors in their own words, anything
 * else logged and reported without internals. */
export function toolError(deps: McpDeps, tool: string, error: unknown): CallToolResult {
  if (error instanceof QuestionNotFound) return errorResult(notFound(error));
  if (error instanceof QbridgeError) return errorResult(error.message);
  deps.logger?.error({ err: error, tool }, "an MCP tool call failed");
  return errorResult(`${tool} failed inside the box: see the question-bridge server's log`);
}

/** Runs a tool body, turning the core's named errors into tool errors a model can act on. */
export async function guarded(
  deps: McpDeps,
  tool: string,
  body: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return toolError(deps, tool, error);
  }
}
