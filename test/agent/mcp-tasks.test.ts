// The MCP Tasks extension over /mcp on a real web server, driven by the SDK's own Client: a
// client that asks for a task gets one at once, tasks/get says `working` until the question is
// decided and `completed` after, tasks/result gives the tool's result, the task outlives a
// restart of the server, and tasks/cancel withdraws the question through the core.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  type Task,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { serveMcp } from "../../src/mcp/http.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import type { WebTransition } from "../../src/web/deps.ts";
import { type RunningWeb, startWeb } from "../../src/web/server.ts";
import { cleanupBoxes, makeBox, selectCard, type TestBox } from "../support/box.ts";
import { connectHttp } from "./agent-support.ts";

const TOKEN = "mcp-tasks-test-token-0123";

const open: { web: RunningWeb; client: Client }[] = [];
afterEach(async () => {
  for (const { web, client } of open.splice(0)) {
    await client.close();
    await web.close();
  }
  cleanupBoxes();
});

async function serve(box: TestBox, seen: WebTransition[] = []): Promise<Client> {
  const config = loadConfig({ QBRIDGE_WEB_PORT: "0", QBRIDGE_API_TOKEN: TOKEN }, { box: box.dir });
  const web = await startWeb({
    core: box,
    config,
    mcp: serveMcp,
    onTransition: (event) => void seen.push(event),
  });
  const client = await connectHttp(web.url, TOKEN);
  open.push({ web, client });
  return client;
}

function askArgs(prompt: string) {
  const card = selectCard({ prompt });
  return {
    prompt,
    memo: card.memo,
    type: "select",
    options: (card.input as { options: unknown[] }).options,
    directive: card.directive,
  };
}

/** A tools/call the client makes as a task: the CreateTaskResult it gets back at once. */
async function callAsTask(client: Client, name: string, args: Record<string, unknown>) {
  const created = await client.request(
    { method: "tools/call", params: { name, arguments: args, task: {} } },
    CreateTaskResultSchema,
  );
  return created.task;
}

/** The question a task waits on, as its status message names it. */
function questionOf(task: Task): string {
  const match = /question (\S+)/.exec(task.statusMessage ?? "");
  if (!match) throw new Error(`no question in "${task.statusMessage}"`);
  return match[1] as string;
}

describe("a question asked as a task", () => {
  it("offers tasks for ask_human and request_permission only", async () => {
    const client = await serve(await makeBox());
    expect(client.getServerCapabilities()?.tasks).toMatchObject({
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await client.listTools();
    const optional = tools
      .filter((t) => t.execution?.taskSupport === "optional")
      .map((t) => t.name);
    expect(optional.sort()).toEqual(["ask_human", "request_permission"]);
  });

  it("is working until the owner answers, then completed with the tool's result", async () => {
    const box = await makeBox();
    const client = await serve(box);
    const task = await callAsTask(client, "ask_human", askArgs("Which folder for receipts?"));
    expect(task.status).toBe("working");
    const id = questionOf(task);
    expect(loadQuestion(box, id).card.status).toBe("pending");
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("working");

    await answerQuestion(box, id, { text: "b" }, { via: "telegram" });
    const done = await client.experimental.tasks.getTask(task.taskId);
    expect(done).toMatchObject({
      status: "completed",
      statusMessage: `question ${id} was answered`,
    });
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.structuredContent).toMatchObject({
      id,
      status: "answered",
      answeredVia: "telegram",
      deduplicated: false,
    });
  });

  it("is still there after the server restarts, and completes there", async () => {
    const box = await makeBox();
    const first = await serve(box);
    const task = await callAsTask(first, "request_permission", {
      tool_name: "Bash",
      input: { command: "rm -rf build/" },
    });
    const id = questionOf(task);
    const { web, client } = open.splice(0, 1)[0] as (typeof open)[number];
    await client.close();
    await web.close();

    const second = await serve(box);
    expect((await second.experimental.tasks.getTask(task.taskId)).status).toBe("working");
    await answerQuestion(box, id, { text: "yes" }, { via: "telegram" });
    const result = await second.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    const text = (result.content[0] as { text: string }).text;
    expect(JSON.parse(text)).toEqual({
      behavior: "allow",
      updatedInput: { command: "rm -rf build/" },
    });
  });

  it("is cancelled by withdrawing its question, which every surface is told", async () => {
    const box = await makeBox();
    const seen: WebTransition[] = [];
    const client = await serve(box, seen);
    const task = await callAsTask(client, "ask_human", askArgs("Archive the 2019 photos?"));
    const id = questionOf(task);
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled.status).toBe("cancelled");
    expect(loadQuestion(box, id).card.status).toBe("withdrawn");
    expect(seen).toContainEqual({ id, action: "withdrawn", via: "mcp" });
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("cancelled");
  });

  it("a call the card rules refuse is a completed task whose result is the tool error", async () => {
    const box = await makeBox();
    const client = await serve(box);
    const task = await callAsTask(client, "ask_human", {
      ...askArgs("Only one option?"),
      options: [{ id: "a", label: "A" }],
    });
    expect(task.status).toBe("completed");
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain("the question is not valid");
  });

  it("the SDK's own task stream follows it from created to the result", async () => {
    const box = await makeBox();
    const client = await serve(box);
    const stream = client.experimental.tasks.callToolStream(
      { name: "ask_human", arguments: askArgs("Rename the shared drive?") },
      CallToolResultSchema,
      { task: {} },
    );
    const kinds: string[] = [];
    for await (const message of stream) {
      kinds.push(message.type);
      if (message.type === "taskCreated") {
        await answerQuestion(box, questionOf(message.task), { text: "a" }, { via: "web" });
      }
      if (message.type === "result") {
        expect(message.result.structuredContent).toMatchObject({ status: "answered" });
      }
    }
    expect(kinds[0]).toBe("taskCreated");
    expect(kinds.at(-1)).toBe("result");
  });
});
