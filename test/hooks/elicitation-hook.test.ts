// Story: an MCP server asks Claude Code for input, and Claude Code runs `qbridge hook
// elicitation`. One enum field is a select on the phone, a boolean a yes/no, a string a reply;
// URL mode sends the link. The printed action is Claude Code's documented Elicitation output:
// accept with the content, decline on Dismiss, cancel when the hook ends first. An answer the
// form would refuse is never recorded.

import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { listJobs, pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { createWebApp } from "../../src/web/app.ts";
import { loadSecret, signLink } from "../../src/web/links.ts";
import { eventually } from "../support/child.ts";
import { buttonData, type Harness, openHarness, useEmulator } from "../support/telegram.ts";
import { formTokenIn, postForm } from "../web/web-support.ts";
import { ElicitationOutput, editedTo, fixture, printed, shown, startHook } from "./hook-support.ts";

const emulator = useEmulator();
const opened: Harness[] = [];
afterEach(async () => {
  for (const h of opened.splice(0)) await h.slot.close();
});

async function phone(): Promise<Harness> {
  const h = await openHarness(emulator());
  h.slot.watch(100);
  opened.push(h);
  return h;
}

function output(hook: { stdout(): string }) {
  return ElicitationOutput.parse(printed(hook as never)).hookSpecificOutput;
}

describe("Claude Code's Elicitation hook", () => {
  it("asks one enum field as a select and prints accept with the chosen value", async () => {
    const h = await phone();
    const hook = startHook("elicitation", h.dir, fixture("claude-elicitation-enum"));
    const message = await shown(h, "Which priority should the new task get?");
    expect(message.buttons.map((b) => b.text).join(" ")).toMatch(/low.*medium.*high/);
    await h.owner.tap(buttonData(message, "c)"), message.messageId);
    await h.pump();
    expect(await hook.exited).toBe(0);
    expect(output(hook)).toEqual({
      hookEventName: "Elicitation",
      action: "accept",
      content: { priority: "high" },
    });
    expect(listJobs(h)).toEqual([]);
  });

  it("asks a boolean as yes/no and prints it as a boolean", async () => {
    const h = await phone();
    const hook = startHook("elicitation", h.dir, fixture("claude-elicitation-boolean"));
    const message = await shown(h, "Also notify the on-call channel?");
    await h.owner.tap(buttonData(message, "Yes"), message.messageId);
    await h.pump();
    expect(await hook.exited).toBe(0);
    expect(output(hook)).toMatchObject({ action: "accept", content: { notify: true } });
  });

  it("asks a string as a reply and prints the words as the field", async () => {
    const h = await phone();
    const hook = startHook("elicitation", h.dir, fixture("claude-elicitation-string"));
    const message = await shown(h, "Please provide your credentials");
    await h.owner.say("ada.lovelace", { replyTo: message.messageId });
    await h.pump();
    expect(await hook.exited).toBe(0);
    expect(output(hook)).toMatchObject({ action: "accept", content: { username: "ada.lovelace" } });
  });

  it("asks a multi-select enum field as toggles and prints the picked values as a list", async () => {
    const h = await phone();
    const hook = startHook("elicitation", h.dir, fixture("claude-elicitation-multiselect"));
    const message = await shown(h, "Which labels should the new task carry?");
    const labels = message.buttons.map((b) => b.text);
    expect(labels.slice(0, 4)).toEqual([
      "☐ a) Bug",
      "☐ b) Documentation",
      "☐ c) Performance",
      "📨 Send",
    ]);
    await h.owner.tap(buttonData(message, "☐ a)"), message.messageId);
    await h.pump();
    await h.owner.tap(buttonData(message, "☐ c)"), message.messageId);
    await h.pump();
    await h.owner.tap(buttonData(message, "📨 Send"), message.messageId);
    await h.pump();
    expect(await hook.exited).toBe(0);
    expect(output(hook)).toEqual({
      hookEventName: "Elicitation",
      action: "accept",
      content: { labels: ["bug", "perf"] },
    });
  });

  it("asks a form without fields as yes/no: no declines, yes accepts", async () => {
    for (const [button, action] of [
      ["No", "decline"],
      ["Yes", "accept"],
    ] as const) {
      const h = await phone();
      const hook = startHook("elicitation", h.dir, fixture("claude-elicitation-no-fields"));
      const message = await shown(h, "Deploy the release to production now?");
      await h.owner.tap(buttonData(message, button), message.messageId);
      await h.pump();
      expect(await hook.exited).toBe(0);
      expect(output(hook)).toMatchObject({ hookEventName: "Elicitation", action });
    }
  });

  it("sends a URL mode's link to the phone; yes accepts, with no content", async () => {
    const h = await phone();
    const hook = startHook("elicitation", h.dir, fixture("claude-elicitation-url"));
    const message = await shown(h, "Please authenticate");
    expect(message.text).toContain("https://auth.example.com/login");
    await h.owner.tap(buttonData(message, "Yes"), message.messageId);
    await h.pump();
    expect(await hook.exited).toBe(0);
    expect(output(hook)).toEqual({ hookEventName: "Elicitation", action: "accept" });
  });

  it("prints decline when the boxholder dismisses it, and withdraws the question", async () => {
    const h = await phone();
    const hook = startHook("elicitation", h.dir, fixture("claude-elicitation-enum"));
    const message = await shown(h, "Which priority should the new task get?");
    await h.owner.tap(buttonData(message, "🚫"), message.messageId);
    await h.pump();
    expect(await hook.exited).toBe(0);
    expect(output(hook)).toEqual({ hookEventName: "Elicitation", action: "decline" });
    expect(pendingQuestions(h).pending).toEqual([]);
  });

  it("prints cancel when the hook ends first, and the phone says the question was withdrawn", async () => {
    const h = await phone();
    const hook = startHook("elicitation", h.dir, fixture("claude-elicitation-string"));
    const message = await shown(h, "Please provide your credentials");
    await hook.kill("SIGTERM");
    expect(output(hook)).toEqual({ hookEventName: "Elicitation", action: "cancel" });
    await editedTo(h, message.messageId, "Withdrawn by the asker: answered at the computer");
  });

  it("records no answer the form refuses, and says what the form wants", async () => {
    const h = await phone();
    const hook = startHook("elicitation", h.dir, fixture("claude-elicitation-two-fields"));
    const view = await eventually(() => pendingQuestions(h).pending[0], 20_000, "the question");
    await expect(
      answerQuestion(h, view.id, { text: '{"priority": "urgent"}' }, { via: "web" }),
    ).rejects.toThrow(/does not answer this question: expected an answer the form accepts/);
    expect(loadQuestion(h, view.id).card.status).toBe("pending");
    await answerQuestion(
      h,
      view.id,
      { text: '{"name": "Write the report", "priority": "low"}' },
      { via: "web" },
    );
    expect(await hook.exited).toBe(0);
    expect(output(hook)).toMatchObject({
      action: "accept",
      content: { name: "Write the report", priority: "low" },
    });
  });

  it("asks two fields with the web page's form: a field the form refuses keeps the page, the rest is accepted", async () => {
    const h = await phone();
    const hook = startHook("elicitation", h.dir, fixture("claude-elicitation-two-fields"));
    const message = await shown(h, "Details for the new task");
    expect(message.text).toContain("use the form on the web page");
    const view = await eventually(() => pendingQuestions(h).pending[0], 20_000, "the question");
    const secret = loadSecret(h.box);
    const app = createWebApp({
      core: h,
      config: loadConfig({ QBRIDGE_WEB_PORT: "0" }, { box: h.dir }),
      secret,
    });
    const link = `/q/${view.id}?s=${signLink(secret, { question: view.id }, h.box.clock.now())}`;
    const page = await (await app.request(link)).text();
    expect(page).toContain('name="field.name"');
    expect(page).toContain('<option value="medium">medium</option>');
    const form = formTokenIn(page);

    const refused = await postForm(app, link, {
      form,
      action: "answer",
      "field.name": "",
      "field.priority": "high",
    });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("required property");
    expect(loadQuestion(h, view.id).card.status).toBe("pending");

    const sent = await postForm(app, link, {
      form,
      action: "answer",
      "field.name": "Write the report",
      "field.priority": "high",
    });
    expect(sent.status).toBe(303);
    expect(await hook.exited).toBe(0);
    expect(output(hook)).toEqual({
      hookEventName: "Elicitation",
      action: "accept",
      content: { name: "Write the report", priority: "high" },
    });
  });

  it("a multi-select field of a web form is checkboxes, and one box or several go back as a list", async () => {
    const h = await phone();
    const secret = loadSecret(h.box);
    const app = createWebApp({
      core: h,
      config: loadConfig({ QBRIDGE_WEB_PORT: "0" }, { box: h.dir }),
      secret,
    });
    for (const picks of [["perf"], ["bug", "perf"]]) {
      const hook = startHook("elicitation", h.dir, fixture("claude-elicitation-form-multiselect"));
      const view = await eventually(() => pendingQuestions(h).pending[0], 20_000, "the question");
      const link = `/q/${view.id}?s=${signLink(secret, { question: view.id }, h.box.clock.now())}`;
      const page = await (await app.request(link)).text();
      expect(page).toContain('type="checkbox" name="field.labels" value="docs"');
      const body = new URLSearchParams({ form: formTokenIn(page), action: "answer" });
      body.set("field.name", "Write the report");
      for (const pick of picks) body.append("field.labels", pick);
      expect((await app.request(link, { method: "POST", body })).status).toBe(303);
      expect(await hook.exited).toBe(0);
      expect(output(hook)).toEqual({
        hookEventName: "Elicitation",
        action: "accept",
        content: { name: "Write the report", labels: picks },
      });
    }
  });
});
