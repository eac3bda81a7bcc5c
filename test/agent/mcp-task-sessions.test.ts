// MCP tasks belong to the session that made them: two agents on one box, each with its own MCP
// session, see only their own tasks in tasks/list, so neither learns the other's task ids to
// follow or cancel; each still follows and cancels its own.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, makeBox, selectCard } from "../support/box.ts";
import { mcpClientOn } from "../support/mcp-client.ts";

afterEach(cleanupBoxes);

async function askAsTask(client: Client, prompt: string) {
  const card = selectCard({ prompt });
  const created = await client.request(
    {
      method: "tools/call",
      params: {
        name: "ask_human",
        arguments: {
          prompt,
          memo: card.memo,
          type: "select",
          options: (card.input as { options: unknown[] }).options,
          directive: card.directive,
        },
        task: {},
      },
    },
    CreateTaskResultSchema,
  );
  return created.task;
}

describe("MCP tasks and sessions", () => {
  it("tasks/list shows each session its own tasks only; each cancels its own", async () => {
    const box = await makeBox();
    const alice = await mcpClientOn({ core: box, timeZone: "UTC" });
    const mallory = await mcpClientOn({ core: box, timeZone: "UTC" });
    const mine = await askAsTask(alice, "Which folder for receipts?");
    const theirs = await askAsTask(mallory, "Archive the 2019 photos?");

    const aliceSees = (await alice.experimental.tasks.listTasks()).tasks.map((t) => t.taskId);
    const mallorySees = (await mallory.experimental.tasks.listTasks()).tasks.map((t) => t.taskId);
    expect(aliceSees).toEqual([mine.taskId]);
    expect(mallorySees).toEqual([theirs.taskId]);

    const cancelled = await alice.experimental.tasks.cancelTask(mine.taskId);
    expect(cancelled.status).toBe("cancelled");
    const question = /question (\S+)/.exec(theirs.statusMessage ?? "")?.[1] as string;
    expect(loadQuestion(box, question).card.status).toBe("pending");
  });
});
