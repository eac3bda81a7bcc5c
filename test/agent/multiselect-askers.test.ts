// Every asker can file a multi-select and read its answer back: `qbridge ask --type multiselect
// --option ...` (and `qbridge answer ID "a, c"`), the JSON API, and MCP's ask_human, whose input
// schema names the type. The outcome's answer is the one every reader knows: `text` the labels,
// `selected` the ids joined by commas.

import { afterEach, describe, expect, it } from "vitest";
import type { NewQuestion } from "../../src/client/index.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import {
  cleanupBoxes,
  cliEnv,
  makeBox,
  multiselectCard,
  runCli,
  type TestBox,
} from "../support/box.ts";
import { mcpClientOn } from "../support/mcp-client.ts";
import { webFixture } from "../web/web-support.ts";
import { callTool } from "./agent-support.ts";

afterEach(cleanupBoxes);

const CHECKS = ["unit=Unit tests", "lint=Lint", "types=Type check"];

describe("a multi-select from every asker", () => {
  it("qbridge ask --type multiselect files it, and qbridge answer records typed picks", async () => {
    const box = await makeBox();
    const flags = CHECKS.flatMap((option) => ["--option", option]);
    const asked = await runCli(
      [
        "ask",
        ...["--prompt", "Which checks should run?", "--memo", "CI minutes are short."],
        ...["--directive", "Run them.", "--type", "multiselect", ...flags, "--json"],
      ],
      { env: cliEnv(box.dir) },
    );
    expect(asked.stderr).toBe("");
    const { id } = JSON.parse(asked.stdout) as { id: string };
    expect(loadQuestion(box, id).card.input).toEqual({
      type: "multiselect",
      options: [
        { id: "unit", label: "Unit tests" },
        { id: "lint", label: "Lint" },
        { id: "types", label: "Type check" },
      ],
    });
    const answered = await runCli(["answer", id, "a, c", "--json"], { env: cliEnv(box.dir) });
    expect(answered.code).toBe(0);
    expect(loadQuestion(box, id).card.answer).toEqual({
      text: "Unit tests, Type check",
      selected: "unit,types",
    });
  });

  it("the API files it and answers it with letters; the outcome carries the picks", async () => {
    const web = await webFixture();
    const post = (path: string, body: unknown) =>
      web.app.request(`/api/v1${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...web.auth() },
        body: JSON.stringify(body),
      });
    // The client's own type of a new question takes the type (tsc checks this file).
    const question: NewQuestion = {
      prompt: "Which checks should run on this pull request?",
      memo: "The pull request changes the build; each check costs a few minutes of CI.",
      input: {
        type: "multiselect",
        options: [
          { id: "unit", label: "Unit tests" },
          { id: "lint", label: "Lint" },
        ],
      },
      directive: "Run the chosen checks and report back.",
    };
    const filed = await post("/questions", question);
    expect(filed.status).toBe(201);
    const { id } = (await filed.json()) as { id: string };
    const res = await post(`/questions/${id}/answer`, { answer: "b, a", note: "both" });
    expect(res.status).toBe(200);
    const outcome = await (
      await web.app.request(`/api/v1/questions/${id}`, { headers: web.auth() })
    ).json();
    expect(outcome.answer).toEqual({
      text: "Unit tests, Lint",
      selected: "unit,lint",
      note: "both",
    });
  });

  it("MCP ask_human names the type in its input schema, files it, and get_answer reads the picks", async () => {
    const box: TestBox = await makeBox();
    const client = await mcpClientOn({ core: box, timeZone: "UTC" });
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === "ask_human")?.inputSchema.properties?.type as {
      enum: string[];
      description: string;
    };
    expect(schema.enum).toContain("multiselect");
    expect(schema.description).toContain("multiselect: pick one or more of `options`");

    const card = multiselectCard();
    const asked = await callTool(client, "ask_human", {
      prompt: card.prompt,
      memo: card.memo,
      directive: card.directive,
      type: "multiselect",
      options: (card.input as { options: unknown }).options,
    }).result;
    const id = asked.structuredContent?.id as string;
    expect(loadQuestion(box, id).card.input.type).toBe("multiselect");
    await answerQuestion(box, id, { text: "lint,types", option: "lint,types" }, { via: "web" });
    const read = await callTool(client, "get_answer", { id }).result;
    expect(read.structuredContent).toMatchObject({
      status: "answered",
      answer: { text: "Lint, Type check", selected: "lint,types" },
    });
  });
});
