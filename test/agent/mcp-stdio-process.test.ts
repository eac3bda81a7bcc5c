// `qbridge mcp` as a real child process over stdio, spoken to line by line as a raw client
// would: stdout carries only JSON-RPC, stopping (stdin closed, SIGTERM) answers every call it
// received first, a line that is not a message is logged and skipped, and outside a box it
// says so in one sentence.

import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { pendingQuestions } from "../../src/questions/state.ts";
import { cleanupBoxes, makeBox, T0 } from "../support/box.ts";
import { qbridge, qbridgeRun } from "../support/child.ts";
import { MCP_TOOL_NAMES } from "../support/mcp-client.ts";
import { initializeAs, jsonLines } from "../support/mcp-raw.ts";

afterEach(cleanupBoxes);

describe("qbridge mcp over stdio", () => {
  const lines = jsonLines;
  const initialize = initializeAs("raw");

  it("writes nothing but JSON-RPC messages on stdout and ends when stdin closes", async () => {
    const box = await makeBox();
    const child = qbridge(["mcp", "--box", box.dir], {
      cwd: box.dir,
      env: { QBRIDGE_TIME: T0 },
    });
    child.type(
      lines([
        initialize,
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
      ]),
    );
    await child.waitFor('"id":2');
    child.endInput();
    const run = { code: await child.exited, stdout: child.stdout() };
    expect(run.code).toBe(0);
    const out = run.stdout.split("\n").filter((line) => line !== "");
    expect(out).toHaveLength(2);
    for (const line of out) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    const tools = JSON.parse(out[1] as string).result.tools as { name: string }[];
    // Every tool the in-process server lists (mcp-tools.test.ts), over stdio too.
    expect(tools.map((t) => t.name).sort()).toEqual(MCP_TOOL_NAMES);
  });

  it("a client that closes stdin right after its calls still gets every answer; waits end pending", async () => {
    const box = await makeBox();
    const ask = (id: number, prompt: string, extra: Record<string, unknown> = {}) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name: "ask_human",
        arguments: {
          prompt,
          memo: "The disk is full.",
          type: "confirm",
          directive: "Act.",
          ...extra,
        },
      },
    });
    const run = await qbridgeRun(["mcp", "--box", box.dir], {
      cwd: box.dir,
      env: { QBRIDGE_TIME: T0 },
      input: lines([
        initialize,
        { jsonrpc: "2.0", method: "notifications/initialized" },
        ask(10, "May I delete the old logs?"),
        ask(11, "May I compress the archive?"),
        ask(12, "May I empty the trash?", { wait_seconds: 50 }),
      ]),
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const replies = run.stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { id?: number; result?: CallToolResult });
    const byId = new Map(replies.map((reply) => [reply.id, reply.result]));
    for (const id of [10, 11, 12]) {
      expect(byId.get(id)?.isError).toBeFalsy();
      expect(byId.get(id)?.structuredContent).toMatchObject({ status: "pending" });
    }
    const { pending } = pendingQuestions(box);
    expect(pending.map((view) => view.card.prompt).sort()).toEqual([
      "May I compress the archive?",
      "May I delete the old logs?",
      "May I empty the trash?",
    ]);
    expect(readdirSync(join(box.dir, ".qbridge/locks"))).toEqual([]);
  });

  it("a line that is not a JSON-RPC message is reported on stderr and the session goes on", async () => {
    const box = await makeBox();
    const run = await qbridgeRun(["mcp", "--box", box.dir], {
      cwd: box.dir,
      env: { QBRIDGE_TIME: T0 },
      input: [
        JSON.stringify(initialize),
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
        '{"jsonrpc":"2.0","id":2,"method":"tools/list"',
        JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }),
      ].join("\n"),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"id":3');
    expect(run.stderr).toContain("could not be read as one JSON-RPC message");
  });

  it("SIGTERM while an asked question is waited on answers that call pending and exits cleanly", async () => {
    const box = await makeBox();
    const child = qbridge(["mcp", "--box", box.dir], { cwd: box.dir, env: { QBRIDGE_TIME: T0 } });
    child.type(
      lines([
        initialize,
        { jsonrpc: "2.0", method: "notifications/initialized" },
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: {
            name: "ask_human",
            arguments: {
              prompt: "May I restart the database?",
              memo: "It is slow.",
              type: "confirm",
              directive: "Restart it.",
              wait_seconds: 50,
            },
            _meta: { progressToken: "p1" },
          },
        },
      ]),
    );
    await child.waitFor('"progressToken":"p1"');
    const ended = await child.kill("SIGTERM");
    // An exit of its own (code 0), not a death by the signal (ended() would name SIGTERM).
    expect({ code: ended, ended: child.ended() }).toEqual({ code: 0, ended: "0" });
    const reply = child
      .stdout()
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { id?: number; result?: CallToolResult })
      .find((message) => message.id === 2);
    expect(reply?.result?.structuredContent).toMatchObject({ status: "pending" });
    expect(readdirSync(join(box.dir, ".qbridge/locks"))).toEqual([]);
  });

  it("outside a box says so in one sentence on stderr and writes nothing on stdout", async () => {
    const box = await makeBox();
    const run = await qbridgeRun(["mcp", "--box", `${box.dir}/missing`], {
      cwd: box.dir,
      input: lines([initialize]),
    });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^qbridge: /);
  });
});
