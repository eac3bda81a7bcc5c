// Story: `qbridge answer` is killed after it wrote the answered card and before git committed
// it. The card on disk reads "answered", but that write is undone by the next writer (the undo
// journal). An agent that reads the outcome in that moment (`qbridge show --json`, the API's
// GET /questions/:id, MCP's get_answer), lists questions or jobs, and the boxholder on the web
// page must see what is committed: pending, and no job. Before, each of them reported the
// answer that was then rolled back (jobs offered its job), so the agent could act on an answer
// the boxholder later saw as never given.
//
// No timing: each read comes after the kill; the dead writer's locks are aged by hand so the
// reader takes them over at once instead of waiting out the stale time.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool } from "../agent/agent-support.ts";
import { cleanupBoxes, cliEnv, readBoxFile, runCli, selectCard } from "../support/box.ts";
import { mcpClientOn } from "../support/mcp-client.ts";
import { type WebFixture, webFixture } from "../web/web-support.ts";
import { ageLocks, history } from "./invariants.ts";

afterAll(cleanupBoxes);

let web: WebFixture;
let id: string;
let rel: string;

beforeAll(async () => {
  web = await webFixture();
  id = await web.ask(selectCard());
  rel = `_bookkeeping/questions/${id}.question.card`;
});

/** `qbridge answer` killed between writing the answered card and committing it. */
async function answerKilledBeforeCommit(): Promise<void> {
  const env = cliEnv(web.box.dir, { QBRIDGE_TEST_CRASH_AT: "before-commit" });
  const killed = await runCli(["answer", id, "a"], { env });
  expect(killed.code).toBe(128); // killed by a signal (childResult)
  // The window this story is about: the disk says answered, git does not.
  expect(readBoxFile(web.box.dir, rel)).toContain("status: answered");
  ageLocks(web.box.dir);
}

describe("an outcome read while a killed answer is left half written", () => {
  it("the API's GET /questions/:id says pending, and the card is put back", async () => {
    await answerKilledBeforeCommit();
    const res = await web.app.request(`/api/v1/questions/${id}`, { headers: web.auth() });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; answer?: unknown };
    expect(body.status).toBe("pending");
    expect(body.answer).toBeUndefined();
    expect(readBoxFile(web.box.dir, rel)).toContain("status: pending");
  });

  it("qbridge show --json says pending", async () => {
    await answerKilledBeforeCommit();
    const shown = await runCli(["show", id, "--json"], { env: cliEnv(web.box.dir) });
    expect(shown.stderr).toBe("");
    expect(JSON.parse(shown.stdout)).toMatchObject({ status: "pending" });
    expect(JSON.parse(shown.stdout).answer).toBeUndefined();
  });

  it("MCP get_answer says pending", async () => {
    await answerKilledBeforeCommit();
    const client = await mcpClientOn({ core: web.box, timeZone: "UTC" });
    const result = await callTool(client, "get_answer", { id }).result;
    await client.close();
    expect(result.structuredContent).toMatchObject({ status: "pending" });
  });

  it("the boxholder's page /q/ID shows the question to answer, not the undone answer", async () => {
    await answerKilledBeforeCommit();
    const res = await web.app.request(web.link({ question: id }));
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('name="choice"');
    expect(readBoxFile(web.box.dir, rel)).toContain("status: pending");
  });

  it("the boxholder's page /questions lists it as waiting, not in the archive", async () => {
    await answerKilledBeforeCommit();
    const res = await web.app.request(web.link({ page: "questions" }));
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("Waiting on you (1)");
    expect(page).not.toContain("answered “");
    expect(readBoxFile(web.box.dir, rel)).toContain("status: pending");
  });

  it("qbridge jobs offers no follow-up job for the undone answer", async () => {
    await answerKilledBeforeCommit();
    const jobs = await runCli(["jobs", "--json"], { env: cliEnv(web.box.dir) });
    expect(jobs.stderr).toBe("");
    expect(JSON.parse(jobs.stdout)).toEqual([]);
  });

  it("qbridge list lists it as pending", async () => {
    await answerKilledBeforeCommit();
    const listed = await runCli(["list", "--json"], { env: cliEnv(web.box.dir) });
    expect(listed.stderr).toBe("");
    expect(JSON.stringify(JSON.parse(listed.stdout))).toContain(id);
  });

  it("the API's and MCP's lists of pending questions hold it", async () => {
    await answerKilledBeforeCommit();
    const res = await web.app.request("/api/v1/questions", { headers: web.auth() });
    const body = (await res.json()) as { questions: { id: string }[] };
    expect(body.questions.map((q) => q.id)).toEqual([id]);
    await answerKilledBeforeCommit();
    const client = await mcpClientOn({ core: web.box, timeZone: "UTC" });
    const result = await callTool(client, "list_questions", {}).result;
    await client.close();
    const listed = result.structuredContent as { questions: { id: string; status: string }[] };
    expect(listed.questions.map((q) => [q.id, q.status])).toEqual([[id, "pending"]]);
  });

  it("the API's and MCP's job readers hand out no job for the undone answer", async () => {
    await answerKilledBeforeCommit();
    const res = await web.app.request(`/api/v1/questions/${id}/job`, { headers: web.auth() });
    expect(res.status).toBe(404);
    await answerKilledBeforeCommit();
    const client = await mcpClientOn({ core: web.box, timeZone: "UTC" });
    const result = await callTool(client, "get_job", { id }).result;
    await client.close();
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain("it is pending");
  });

  it("the boxholder's next answer is the one recorded, in one commit", async () => {
    const done = await runCli(["answer", id, "b"], { env: cliEnv(web.box.dir) });
    expect(done.stderr).toBe("");
    const shown = await runCli(["show", id, "--json"], { env: cliEnv(web.box.dir) });
    expect(JSON.parse(shown.stdout)).toMatchObject({
      status: "answered",
      answer: { text: "Taxes" },
    });
    const { subjects } = await history(web.box.dir);
    expect(subjects.filter((s) => s.startsWith("answer: "))).toHaveLength(1);
  });
});
