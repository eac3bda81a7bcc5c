// Story: a coding agent (or several agents on one box) sends the same `request_permission`
// call many times at once, as parallel tool calls or retries do. The owner must see one
// question: exactly one is filed, in one commit, and every call is told its id. The calls go
// through the real MCP server (in process over the SDK's client, and `qbridge mcp` processes
// over stdio) to a real git box.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { pendingQuestions } from "../../src/questions/state.ts";
import { cleanupBoxes, gitLog, makeBox, type TestBox } from "../support/box.ts";
import { mcpClientOn } from "../support/mcp-client.ts";
import { callTool, connectStdio, textJson } from "./agent-support.ts";

afterEach(cleanupBoxes);

const REQUEST = {
  tool_name: "Bash",
  input: { command: "rm -rf build/", description: "clean the build" },
  wait_seconds: 0,
};

/** The question a "nobody has decided yet" deny names. */
async function questionNamed(client: Client): Promise<string> {
  const decision = await textJson(callTool(client, "request_permission", REQUEST));
  expect(decision.behavior).toBe("deny");
  const id = /question (\S+) so far/.exec(String(decision.message))?.[1];
  expect(id, String(decision.message)).toBeDefined();
  return id as string;
}

async function expectOneQuestion(box: TestBox, ids: string[]): Promise<void> {
  const asks = (await gitLog(box.dir)).filter((subject) => subject.startsWith("ask: "));
  expect(asks).toHaveLength(1);
  const { pending } = pendingQuestions(box);
  expect(pending.map((view) => view.id)).toEqual([ids[0]]);
  expect(new Set(ids)).toEqual(new Set([pending[0]?.id]));
}

describe("identical request_permission calls at the same moment", () => {
  it("file one question, and all 6 calls to one server are told its id", async () => {
    const box = await makeBox();
    const client = await mcpClientOn({ core: box, timeZone: "UTC" });
    const ids = await Promise.all([1, 2, 3, 4, 5, 6].map(() => questionNamed(client)));
    await expectOneQuestion(box, ids);
  });

  it("file one question when two `qbridge mcp` processes get 3 calls each at once", async () => {
    const box = await makeBox();
    const agents = await Promise.all([connectStdio(box.dir), connectStdio(box.dir)]);
    try {
      const ids = await Promise.all(
        agents.flatMap(({ client }) => [1, 2, 3].map(() => questionNamed(client))),
      );
      await expectOneQuestion(box, ids);
    } finally {
      await Promise.all(agents.map(({ client }) => client.close()));
    }
  });
});
