// Story: Codex asks permission for an MCP tool and for apply_patch as it sends them now (any
// tool_input). The MCP call reads as a sentence with its arguments one per line; the patch as
// the files it adds, updates and deletes with their +/- lines, the whole patch behind the web
// link. What `qbridge hook permission` prints is what Codex's output schema allows: never
// updatedInput, updatedPermissions or interrupt.

import { afterEach, describe, expect, it } from "vitest";
import { requestBeyondPrompt } from "../../src/card/agent-request.ts";
import { loadConfig } from "../../src/config.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { createWebApp } from "../../src/web/app.ts";
import { loadSecret, signLink } from "../../src/web/links.ts";
import { cleanupBoxes, makeBox } from "../support/box.ts";
import { fixtureInput } from "./agent-fixtures.ts";
import {
  CodexPermissionOutput,
  filedQuestion,
  fixture,
  permissionHookInProcess,
  printed,
  startHook,
} from "./hook-support.ts";

afterEach(cleanupBoxes);

const PATCH = fixtureInput("codex-permission-apply-patch").tool_input as { command: string };

describe("Codex's MCP tool and apply_patch requests", () => {
  it("an MCP tool's call is filed by `qbridge hook permission` as a sentence with its arguments, and Allow once prints Codex's allow", async () => {
    const box = await makeBox();
    const hook = startHook("permission", box.dir, fixture("codex-permission-mcp"), [
      "--agent",
      "codex",
    ]);
    const { id } = await filedQuestion(box);
    const card = loadQuestion(box, id).card;
    const request = JSON.stringify(fixtureInput("codex-permission-mcp").tool_input);
    expect(card.prompt).toBe(`Run github's create_issue with 5 arguments: ${request}?`);
    expect(card.memo).toContain("owner: ada\nrepo: api\ntitle: Flaky test in session refresh\n");
    expect(card.memo).toContain('labels: ["bug","ci"]');
    expect(card.request).toBe(request);
    expect(requestBeyondPrompt(card)).toBe(false);
    await answerQuestion(box, id, { text: "allow-once" }, { via: "web" });
    expect(await hook.exited).toBe(0);
    expect(CodexPermissionOutput.parse(printed(hook)).hookSpecificOutput.decision).toEqual({
      behavior: "allow",
    });
  });

  it("an MCP call too long for a prompt is its sentence alone, the arguments cut for the phone and whole in the request", async () => {
    const box = await makeBox();
    const body = "The refresh test fails about once in twenty runs. ".repeat(8).trim();
    const args = { environment: "staging", body };
    const input = fixture("codex-permission-mcp", {
      tool_name: "mcp__deploy-tools__deploy",
      tool_input: args,
    });
    const hook = permissionHookInProcess(box, input);
    const { id } = await filedQuestion(box);
    const card = loadQuestion(box, id).card;
    expect(card.prompt).toBe("Run deploy-tools' deploy on staging?");
    expect(card.memo).toContain("environment: staging\nbody: The refresh test fails");
    expect(card.memo).not.toContain(`body: ${body}\n`);
    expect(card.request).toBe(JSON.stringify(args));
    expect(requestBeyondPrompt(card)).toBe(true);
    await answerQuestion(box, id, { text: "deny", note: "not now" }, { via: "telegram" });
    expect(CodexPermissionOutput.parse(await hook.done).hookSpecificOutput.decision).toEqual({
      behavior: "deny",
      message: expect.stringContaining('"not now"'),
    });
  });

  it("apply_patch shows the files it changes with +/- lines, the whole patch on the web page; Allow for this session prints only Codex's allow", async () => {
    const box = await makeBox();
    const hook = permissionHookInProcess(box, fixture("codex-permission-apply-patch"));
    const { id } = await filedQuestion(box);
    const card = loadQuestion(box, id).card;
    expect(card.prompt).toBe("Apply a patch to 3 files (+2 -1)?");
    expect(card.memo).toContain(
      "add hello.txt (+1)\nupdate src/app.py → src/main.py (+1 -1)\ndelete obsolete.txt",
    );
    expect(card.request).toBe(PATCH.command.trim());
    expect(requestBeyondPrompt(card)).toBe(true);
    expect(card.input.options?.map((o) => o.id)).toEqual(["allow-once", "allow-session", "deny"]);

    const secret = loadSecret(box.box);
    const app = createWebApp({
      core: box,
      config: loadConfig({ QBRIDGE_WEB_PORT: "0" }, { box: box.dir }),
      secret,
    });
    const link = `/q/${id}?s=${signLink(secret, { question: id }, box.box.clock.now())}`;
    const page = await (await app.request(link)).text();
    expect(page).toContain("*** Update File: src/app.py");
    expect(page).toContain("+print(&quot;Hello, world!&quot;)");

    await answerQuestion(box, id, { text: "allow-session" }, { via: "web" });
    expect(CodexPermissionOutput.parse(await hook.done).hookSpecificOutput.decision).toEqual({
      behavior: "allow",
    });
  });
});
