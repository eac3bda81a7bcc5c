// What the agent stories stand on: the SDK's own MCP Client connected to `qbridge mcp` (a real
// child process over stdio) or to /mcp on a real web server, a tool call that records the
// progress notifications it receives, and the box's question shown on the emulator.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { CLI, T0 } from "../support/box.ts";
import { type BotMessage, eventually, type Harness, toBotMessage } from "../support/telegram.ts";

export interface ToolCall {
  result: Promise<{
    structuredContent?: Record<string, unknown> | undefined;
    content: { type: string; text?: string }[];
    isError?: boolean | undefined;
  }>;
  progress: Progress[];
}

export function callTool(client: Client, name: string, args: Record<string, unknown>): ToolCall {
  const progress: Progress[] = [];
  const result = client.callTool({ name, arguments: args }, undefined, {
    onprogress: (p) => progress.push(p),
    resetTimeoutOnProgress: true,
    timeout: 30_000,
  }) as ToolCall["result"];
  return { result, progress };
}

/** The JSON a tool returned as text (request_permission's decision). */
export async function textJson(call: ToolCall): Promise<Record<string, unknown>> {
  const { content } = await call.result;
  return JSON.parse(content[0]?.text ?? "null") as Record<string, unknown>;
}

export async function connectStdio(
  boxDir: string,
  env: Record<string, string> = {},
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", "--box", boxDir],
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? boxDir,
      QBRIDGE_TIME: T0,
      QBRIDGE_LOCK_STALE_MS: "5000",
      ...env,
    },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d) => {
    err += d;
  });
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => err };
}

export async function connectHttp(url: string, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** The message the bot sent for the question with this prompt, once the slot presented it. */
export async function shownOnTelegram(h: Harness, prompt: string): Promise<BotMessage> {
  return eventually(
    async () => {
      await h.slot.reconcile();
      const call = h.calls.find(
        (c) =>
          c.method === "sendMessage" &&
          c.result &&
          String(c.payload.text).includes(prompt.slice(0, 30)),
      );
      return call ? toBotMessage(call) : undefined;
    },
    15_000,
    `the question "${prompt}" on Telegram`,
  );
}
