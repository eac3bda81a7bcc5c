// The MCP tools in process, over the SDK's in-memory transport (no Telegram): the progress
// cadence of a wait, the order of list_questions, the errors a model can act on, the decisions of
// request_permission for every status, and the /mcp endpoint's gate.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { permissionDecision } from "../../src/mcp/permission.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import type { QuestionOutcome } from "../../src/questions/outcome.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { PresentationStore } from "../../src/slot/presentation/records.ts";
import { hourElevenAnswers, REPEATED, SPECS, statsBox, ZONE } from "../stats/stats-fixture.ts";
import {
  cleanupBoxes,
  confirmCard,
  makeBox,
  selectCard,
  T0,
  type TestBox,
  textCard,
} from "../support/box.ts";
import { eventually } from "../support/child.ts";
import { MCP_TOOL_NAMES, mcpClientOn } from "../support/mcp-client.ts";
import { initializeAs } from "../support/mcp-raw.ts";
import { API_TOKEN, webFixture } from "../web/web-support.ts";
import { callTool } from "./agent-support.ts";

afterEach(cleanupBoxes);

function inMemory(box: TestBox, tickSeconds?: number, timeZone = "UTC"): Promise<Client> {
  return mcpClientOn({ core: box, tickSeconds, timeZone });
}

describe("the MCP tools", () => {
  it("lists its tools, each describing when to ask and that silence is not consent", async () => {
    const client = await inMemory(await makeBox());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(MCP_TOOL_NAMES);
    const ask = tools.find((t) => t.name === "ask_human");
    expect(ask?.description).toContain("cannot settle alone");
    expect(ask?.description).toContain("Silence is not consent");
    expect(tools.find((t) => t.name === "request_permission")?.description).toContain(
      "Silence is never consent",
    );
    // "1m" is a minute, not a month: the one slip a model would make with extend_question.
    const extend = tools.find((t) => t.name === "extend_question")?.inputSchema.properties;
    expect(JSON.stringify(extend?.duration)).toContain('\\"m\\" is minutes');
  });

  it("a wait sends progress at its start and then every tick until it ends pending", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, selectCard());
    const client = await inMemory(box, 1);
    const call = callTool(client, "get_answer", { id, wait_seconds: 3 });
    const result = await call.result;
    expect(result.structuredContent).toMatchObject({ id, status: "pending" });
    expect(call.progress.length).toBeGreaterThanOrEqual(3);
    const steps = call.progress.map((p) => p.progress);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(new Set(steps).size).toBe(steps.length);
    expect(call.progress[1]?.message).toContain(`no answer to ${id} yet`);
  });

  it("an hour's wait sends progress while it waits, and ends with the answer given meanwhile", async () => {
    const box = await makeBox();
    const { id } = await askQuestion(box, selectCard());
    const client = await inMemory(box);
    const call = callTool(client, "get_answer", { id, wait_seconds: 3_600 });
    await eventually(async () => call.progress.length > 0 || undefined, 10_000, "a progress");
    expect(call.progress[0]).toMatchObject({ progress: 0, total: 3_600 });
    await answerQuestion(box, id, { text: "Taxes" }, { via: "cli" });
    const result = await call.result;
    expect(result.structuredContent).toMatchObject({ id, status: "answered" });
  });

  it("list_questions gives the pending questions in slot order: high priority first, parked last", async () => {
    const box = await makeBox();
    const parked = await askQuestion(box, textCard({ priority: "high" }));
    const low = await askQuestion(box, selectCard({ prompt: "Low one?", priority: "low" }));
    const high = await askQuestion(box, confirmCard({ priority: "high" }));
    new PresentationStore(box.ledger.db).park(parked.id, T0);
    const client = await inMemory(box);
    const result = await callTool(client, "list_questions", {}).result;
    const ids = (result.structuredContent?.questions as QuestionOutcome[] | undefined)?.map(
      (q) => q.id,
    );
    expect(ids).toEqual([high.id, low.id, parked.id]);
  });

  it("list_questions says what each question asks, so an agent can find its own again", async () => {
    const box = await makeBox();
    const mine = await askQuestion(box, confirmCard({ prompt: "Mine?", "asked-by": "tidy-bot" }));
    const client = await inMemory(box);
    const result = await callTool(client, "list_questions", { status: "all" }).result;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent?.questions).toEqual([
      expect.objectContaining({ id: mine.id, prompt: "Mine?", askedBy: "tidy-bot" }),
    ]);
  });

  it("ask_human carries expectedWaitSeconds and the stop-asking hint like qbridge ask --json", async () => {
    const box = await statsBox([...SPECS, ...hourElevenAnswers(10)]);
    const client = await inMemory(box, undefined, ZONE);
    const ask = {
      memo: "Old invoices fill the disk.",
      type: "confirm",
      directive: "Archive them.",
    };
    const repeated = await callTool(client, "ask_human", { ...ask, prompt: REPEATED }).result;
    expect(repeated.isError).toBeFalsy();
    expect(repeated.structuredContent).toMatchObject({
      status: "pending",
      expectedWaitSeconds: 300,
      hint: "3 similar questions were dismissed or left to expire without an answer since 20 Jun",
    });
    expect(JSON.parse(repeated.content[0]?.text ?? "{}").hint).toContain("3 similar questions");
    const fresh = await inMemory(await makeBox(), undefined, ZONE);
    const plain = await callTool(fresh, "ask_human", { ...ask, prompt: "Archive the logs?" })
      .result;
    expect(plain.structuredContent).toMatchObject({ expectedWaitSeconds: null, hint: null });
  });

  it("a question the card rules refuse comes back as a tool error saying what to fix", async () => {
    const client = await inMemory(await makeBox());
    const result = await callTool(client, "ask_human", {
      prompt: "Which one?",
      memo: "Two folders fit.",
      type: "select",
      options: [{ id: "a", label: "A" }],
      directive: "File it.",
    }).result;
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe(
      "the question is not valid: options: a select question needs at least 2 options",
    );
    // Named as the tool's arguments are spelled, not as the card file spells them.
    const late = await callTool(client, "ask_human", {
      prompt: "Which one?",
      memo: "Two folders fit.",
      type: "confirm",
      directive: "File it.",
      expires_after: "3 days",
    }).result;
    expect(late.content[0]?.text).toBe(
      "the question is not valid: expires_after: must be an ISO-8601 duration such as P30D",
    );
  });

  it("a callback is kept on the card when webhooks are on, and refused with the fix when off", async () => {
    const box = await makeBox();
    const off = await inMemory(box);
    const refused = await callTool(off, "ask_human", {
      prompt: "Which folder?",
      memo: "Two folders fit.",
      type: "confirm",
      directive: "File it.",
      callback: "https://agent.example.org/answers",
    }).result;
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toContain("QBRIDGE_WEBHOOK_SECRET");
    expect(pendingQuestions(box).pending).toEqual([]);
    const on = await inMemory({ ...box, webhooks: { url: undefined } } as TestBox);
    const asked = await callTool(on, "ask_human", {
      prompt: "Which folder?",
      memo: "Two folders fit.",
      type: "confirm",
      directive: "File it.",
      callback: "https://agent.example.org/answers",
    }).result;
    const id = asked.structuredContent?.id as string;
    expect(loadQuestion(box, id).card.callback).toBe("https://agent.example.org/answers");
  });

  it("ask_human says when it returned an open question instead of filing this one", async () => {
    const box = await makeBox();
    const client = await inMemory(box);
    const ask = { prompt: "Which folder?", memo: "Two fit.", directive: "File it." };
    const first = await callTool(client, "ask_human", { ...ask, type: "confirm" }).result;
    expect(first.structuredContent).toMatchObject({ status: "pending", deduplicated: false });
    const options = [
      { id: "tax", label: "Taxes" },
      { id: "fin", label: "Finance" },
    ];
    const again = await callTool(client, "ask_human", { ...ask, type: "select", options }).result;
    expect(again.isError).toBeFalsy();
    expect(again.structuredContent).toMatchObject({
      id: first.structuredContent?.id,
      deduplicated: true,
    });
    expect(loadQuestion(box, first.structuredContent?.id as string).card.input.type).toBe(
      "confirm",
    );
  });

  it("ask_human never returns a coding agent's permission question with the same prompt", async () => {
    const box = await makeBox();
    const client = await inMemory(box);
    const request = { tool_name: "Bash", input: { command: "rm -rf build/" }, wait_seconds: 0 };
    await callTool(client, "request_permission", request).result;
    const [permission] = pendingQuestions(box).pending;
    expect(permission?.card.prompt).toBe("Allow Bash: rm -rf build/?");
    // Another agent asking in the same words asks its own question: the owner's yes to the
    // permission was never a yes to this memo and directive.
    const asked = await callTool(client, "ask_human", {
      prompt: "Allow Bash: rm -rf build/?",
      memo: "The build folder holds the only copy of the release.",
      type: "confirm",
      directive: "Delete the build folder.",
    }).result;
    expect(asked.structuredContent).toMatchObject({ status: "pending", deduplicated: false });
    expect(asked.structuredContent?.id).not.toBe(permission?.id);
    expect(loadQuestion(box, asked.structuredContent?.id as string).card.kind).toBeUndefined();
  });

  it("an argument a tool does not know is refused naming it and its spelling, nothing filed", async () => {
    const box = await makeBox();
    const client = await inMemory(box);
    const result = await callTool(client, "ask_human", {
      prompt: "May I delete the old backups?",
      memo: "The disk is full.",
      type: "confirm",
      directive: "Delete them.",
      "while-waiting": "I keep every backup.",
    }).result;
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain(
      'unknown argument "while-waiting" (did you mean "while_waiting"?)',
    );
    expect(pendingQuestions(box).pending).toEqual([]);
    const listed = await callTool(client, "list_questions", { state: "all" }).result;
    expect(listed.isError).toBe(true);
    expect(listed.content[0]?.text).toContain('unknown argument "state"');
  });

  it("an unknown id (pointed at list_questions) and a wait over 3,600 s are refused with a sentence, nothing filed", async () => {
    const box = await makeBox();
    const client = await inMemory(box);
    const missing = await callTool(client, "get_answer", { id: "no-such-question" }).result;
    expect(missing.isError).toBe(true);
    expect(missing.content[0]?.text).toContain('no question "no-such-question"');
    // A model cannot run the command line: it is pointed at the tool that lists the ids.
    expect(missing.content[0]?.text).toContain('call list_questions with status "all"');
    expect(missing.content[0]?.text).not.toContain("qbridge");
    const long = await callTool(client, "get_answer", { id: "x", wait_seconds: 3_601 }).result;
    expect(long.isError).toBe(true);
    expect(long.content[0]?.text).toContain("wait_seconds");
  });
});

describe("get_job", () => {
  it("gives the follow-up job of an answered question, and says why there is none before", async () => {
    const box = await makeBox();
    const client = await inMemory(box);
    const { id } = await askQuestion(box, selectCard());
    const before = await callTool(client, "get_job", { id }).result;
    expect(before.isError).toBe(true);
    expect(before.content[0]?.text).toContain("it is pending");
    await answerQuestion(box, id, { text: "Taxes" }, { via: "cli" });
    const after = await callTool(client, "get_job", { id }).result;
    expect(after.structuredContent).toMatchObject({
      rel: `_bookkeeping/jobs/${id}.question-followup.job.card`,
      job: { "question-id": id, answer: { text: "Taxes", selected: "taxes" } },
      instructions: expect.stringContaining("`mark_job_done`"),
    });
    const done = await callTool(client, "mark_job_done", { id }).result;
    expect(done.structuredContent).toMatchObject({ id, commit: expect.any(String) });
    const read = await callTool(client, "get_job", { id }).result;
    expect(read.structuredContent).toMatchObject({ job: { status: "done" } });
    const missing = await callTool(client, "get_job", { id: "no-such-question" }).result;
    expect(missing.content[0]?.text).toContain("list_questions");
  });
});

describe("a permission decision", () => {
  const request = { tool_name: "Bash", input: { command: "make deploy" } };
  const outcome = (fields: Partial<QuestionOutcome>): QuestionOutcome => ({
    id: "q1",
    status: "pending",
    askedAt: "2026-07-10T09:00:00Z",
    waitedSeconds: 0,
    late: false,
    ...fields,
  });

  it("only a recorded yes allows; every other status denies and says there is no yes", () => {
    const yes = outcome({ status: "answered", answer: { text: "Yes", selected: "yes" } });
    expect(permissionDecision(request, yes)).toEqual({
      behavior: "allow",
      updatedInput: request.input,
    });
    for (const status of ["dismissed", "expired", "withdrawn"] as const) {
      const decision = permissionDecision(request, outcome({ status }));
      expect(decision.behavior).toBe("deny");
      expect(decision).toMatchObject({ message: expect.stringContaining("no yes") });
    }
  });

  it("no answer yet points at get_answer and promises a repeat request the same question only while it is open", () => {
    const decision = permissionDecision(request, outcome({}));
    expect(decision).toMatchObject({ behavior: "deny" });
    const message = "message" in decision ? decision.message : "";
    expect(message).toContain('call get_answer with id "q1"');
    expect(message).toContain("only while it is open");
    expect(message).toContain("once the owner has decided, a new request files a new question");
  });
});

describe("the /mcp endpoint", () => {
  const initialize = initializeAs("curl");
  const post = (headers: Record<string, string>) => ({
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(initialize),
  });

  it("refuses a request without the API's bearer token, and is off without a token", async () => {
    const web = await webFixture();
    const refused = await web.app.request("/mcp", post({}));
    expect(refused.status).toBe(401);
    expect(refused.headers.get("WWW-Authenticate")).toContain("Bearer");
    const wrong = await web.app.request("/mcp", post({ Authorization: "Bearer wrong-token-xx" }));
    expect(wrong.status).toBe(401);
    const off = await webFixture({ apiToken: null });
    expect((await off.app.request("/mcp", post({}))).status).toBe(503);
  });

  it("answers an initialize with the bearer token, and refuses GET as a stateless endpoint", async () => {
    const web = await webFixture();
    const ok = await web.app.request("/mcp", post({ Authorization: `Bearer ${API_TOKEN}` }));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('"name":"question-bridge"');
    const get = await web.app.request("/mcp", {
      headers: { Authorization: `Bearer ${API_TOKEN}`, Accept: "text/event-stream" },
    });
    expect(get.status).toBe(405);
  });
});
