// Story: Codex runs `qbridge hook permission` for a shell command and the boxholder answers on
// the signed web page; the printed decision is exactly what Codex's output schema allows (no
// field it fails closed on). And an agent using `request_permission` over MCP: its question is
// a permission too, expires with the call, writes no job, and never waits on a question an
// asker worded the same way.

import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { permissionCard } from "../../src/mcp/permission.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { listJobs, pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { createWebApp } from "../../src/web/app.ts";
import { loadSecret, signLink } from "../../src/web/links.ts";
import { callTool, textJson } from "../agent/agent-support.ts";
import { cleanupBoxes, makeBox } from "../support/box.ts";
import { eventually } from "../support/child.ts";
import { mcpClientOn } from "../support/mcp-client.ts";
import { formTokenIn, postForm } from "../web/web-support.ts";
import { CodexPermissionOutput, fixture, printed, startHook } from "./hook-support.ts";

afterEach(cleanupBoxes);

describe("Codex's PermissionRequest hook, answered on the web page", () => {
  it("offers no Always allow and no edit, and prints only behavior, as Codex's schema allows", async () => {
    const box = await makeBox();
    const hook = startHook("permission", box.dir, fixture("codex-permission-bash"));
    const view = await eventually(() => pendingQuestions(box).pending[0], 20_000, "the question");
    const card = loadQuestion(box, view.id).card;
    expect(card.prompt).toBe("Allow Bash: cargo test -p api?");
    expect(card.memo).toContain('Codex: "Run the api crate\'s tests, which need network access".');
    expect(card.memo).toContain("In work/api.");
    expect(card.input.options?.map((o) => o.id)).toEqual(["allow-once", "allow-session", "deny"]);

    const app = createWebApp({
      core: box,
      config: loadConfig({ QBRIDGE_WEB_PORT: "0" }, { box: box.dir }),
      secret: loadSecret(box.box),
    });
    const link = `/q/${view.id}?s=${signLink(loadSecret(box.box), { question: view.id }, box.box.clock.now())}`;
    const page = await (await app.request(link)).text();
    expect(page).toContain("cargo test -p api");
    const res = await postForm(app, link, {
      form: formTokenIn(page),
      action: "answer",
      choice: "allow-session",
    });
    expect(res.status).toBe(303);
    expect(await hook.exited).toBe(0);
    const output = CodexPermissionOutput.parse(printed(hook));
    expect(output.hookSpecificOutput.decision).toEqual({ behavior: "allow" });
    expect(listJobs(box)).toEqual([]);
  });

  it("a Codex deny carries the message and nothing Codex fails closed on", async () => {
    const box = await makeBox();
    const hook = startHook("permission", box.dir, fixture("codex-permission-bash"), [
      "--agent",
      "codex",
    ]);
    const view = await eventually(() => pendingQuestions(box).pending[0], 20_000, "the question");
    await answerQuestion(
      box,
      view.id,
      { text: "deny", note: "not on the shared runner" },
      { via: "telegram" },
    );
    expect(await hook.exited).toBe(0);
    const { decision } = CodexPermissionOutput.parse(printed(hook)).hookSpecificOutput;
    expect(decision).toEqual({
      behavior: "deny",
      message: expect.stringContaining('"not on the shared runner"'),
    });
  });
});

describe("request_permission over MCP", () => {
  const REQUEST = { tool_name: "Bash", input: { command: "make deploy" }, wait_seconds: 0 };

  it("files a permission question that expires with the call and writes no job once answered", async () => {
    const box = await makeBox();
    const client = await mcpClientOn({ core: box, timeZone: "UTC" });
    const denied = await textJson(callTool(client, "request_permission", REQUEST));
    const id = /question (\S+) so far/.exec(String(denied.message))?.[1] as string;
    const card = loadQuestion(box, id).card;
    expect(card).toMatchObject({ kind: "permission", "expires-after": "PT10M" });
    await answerQuestion(box, id, { text: "yes" }, { via: "telegram" });
    expect(listJobs(box)).toEqual([]);
    const after = await callTool(client, "get_answer", { id }).result;
    expect(after.structuredContent).toMatchObject({ id, status: "answered" });
    expect(after.structuredContent).not.toHaveProperty("jobRel");
  });

  it("never waits on a question an asker filed with the same words", async () => {
    const box = await makeBox();
    const lookAlike = permissionCard({ tool_name: "Bash", input: REQUEST.input });
    const { id: asked } = await askQuestion(box, lookAlike, { via: "cli" });
    const client = await mcpClientOn({ core: box, timeZone: "UTC" });
    const denied = await textJson(callTool(client, "request_permission", REQUEST));
    const id = /question (\S+) so far/.exec(String(denied.message))?.[1] as string;
    expect(id).not.toBe(asked);
    expect(loadQuestion(box, id).card.kind).toBe("permission");
    expect(loadQuestion(box, asked).card.kind).toBeUndefined();
    const again = await textJson(callTool(client, "request_permission", REQUEST));
    expect(String(again.message)).toContain(`question ${id} so far`);
  });
});
