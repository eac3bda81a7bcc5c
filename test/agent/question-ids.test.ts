// Ids as the CLI takes them, over the API and the MCP tools: a unique beginning or the
// 6-character end stands for the whole id (and every answer names the whole id), an id that
// fits several questions is refused listing them, and a part under 4 characters is refused.
// One resolver in the core serves all three surfaces.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, confirmCard, gitLog, selectCard } from "../support/box.ts";
import { mcpClientOn } from "../support/mcp-client.ts";
import { type WebFixture, webFixture } from "../web/web-support.ts";
import { callTool } from "./agent-support.ts";

const RECEIPTS = "2026-07-10-where-do-receipts-go-3fa2c1";
const BACKUPS = "2026-07-10-delete-old-backups-91bc07";
const BACKUPS_TOO = "2026-07-10-delete-old-backups-91bd00";

let web: WebFixture;
let client: Client;

beforeAll(async () => {
  web = await webFixture();
  await web.ask(selectCard({ id: RECEIPTS }));
  await web.ask(confirmCard({ id: BACKUPS }));
  await web.ask(confirmCard({ id: BACKUPS_TOO, prompt: "Delete the other backups?" }));
  client = await mcpClientOn({ core: web.box, timeZone: "UTC" });
});
afterAll(cleanupBoxes);

function api(method: string, path: string, body?: unknown) {
  return web.app.request(`/api/v1${path}`, {
    method,
    headers: { "content-type": "application/json", ...web.auth() },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe("the API", () => {
  it("reads a question by a unique beginning and answers one by its 6-character end", async () => {
    const read = await api("GET", "/questions/2026-07-10-where");
    expect(read.status).toBe(200);
    expect((await read.json()).id).toBe(RECEIPTS);
    const answered = await api("POST", "/questions/91bc07/answer", { answer: "yes" });
    expect(answered.status).toBe(200);
    expect(loadQuestion(web.box, BACKUPS).card.status).toBe("answered");
  });

  it("refuses an id that fits several questions, listing them, and one under 4 characters", async () => {
    const commits = await gitLog(web.box.dir);
    const several = await api("POST", "/questions/2026-07-10-delete/dismiss", {});
    expect(several.status).toBe(422);
    expect((await several.json()).error.message).toBe(
      `"2026-07-10-delete" matches 2 questions (${BACKUPS}, ${BACKUPS_TOO}): give more of the id`,
    );
    const short = await api("POST", "/questions/d00/dismiss", {});
    expect(short.status).toBe(422);
    expect((await short.json()).error.message).toContain("too short to stand for a question id");
    expect(await gitLog(web.box.dir)).toEqual(commits);
  });

  it("names the closest id of one with a slip in it", async () => {
    const res = await api("GET", "/questions/2026-07-10-where-do-reciepts-go-3fa2c1");
    expect(res.status).toBe(404);
    expect((await res.json()).error.message).toContain(`the closest: ${RECEIPTS}`);
  });
});

describe("the MCP tools", () => {
  it("get_answer and withdraw_question take the 6-character end and give the whole id", async () => {
    const read = await callTool(client, "get_answer", { id: "3fa2c1" }).result;
    expect(read.structuredContent).toMatchObject({ id: RECEIPTS, status: "pending" });
    const withdrawn = await callTool(client, "withdraw_question", { id: "91bd00" }).result;
    expect(withdrawn.structuredContent).toMatchObject({ id: BACKUPS_TOO, status: "withdrawn" });
    expect(loadQuestion(web.box, BACKUPS_TOO).card.status).toBe("withdrawn");
  });

  it("refuses an id that fits several questions with a tool error listing them", async () => {
    const result = await callTool(client, "extend_question", {
      id: "2026-07-10-delete",
      duration: "P1D",
    }).result;
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe(
      `"2026-07-10-delete" matches 2 questions (${BACKUPS}, ${BACKUPS_TOO}): give more of the id`,
    );
  });
});
