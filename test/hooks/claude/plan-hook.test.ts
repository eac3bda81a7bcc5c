// Story: Claude Code finishes planning and asks, through its PermissionRequest hook
// (ExitPlanMode), to start coding. The plan is shown as a plan: its first screen on Telegram,
// the whole of it rendered as Markdown (escaped) on the signed web page, whole in `qbridge
// chat`; Approve, Approve and accept edits for this session, Keep planning go back as Claude
// Code takes them: an allow always echoing the input (a plain allow leaves its dialog
// waiting), accept edits as the session's setMode update, Keep planning as a deny whose
// message is the note and which never interrupts.

import { afterEach, describe, expect, it } from "vitest";
import { loadQuestion } from "../../../src/questions/store.ts";
import { cleanupBoxes, makeBox } from "../../support/box.ts";
import { keyboardOn } from "../../support/keyboard.ts";
import { buttonData, type Harness, openHarness, useEmulator } from "../../support/telegram.ts";
import { formTokenIn, webFixture } from "../../web/web-support.ts";
import { toolInputOf } from "../agent-fixtures.ts";
import { ClaudePermissionOutput } from "../agent-outputs.ts";
import {
  filedQuestion,
  fixture,
  permissionHookInProcess,
  shown,
  tapConfirmed,
} from "../hook-support.ts";

afterEach(cleanupBoxes);

const PLAN = "claude-permission-exitplanmode";

function decisionIn(printed: Record<string, unknown> | undefined) {
  return ClaudePermissionOutput.parse(printed).hookSpecificOutput.decision;
}

describe("ExitPlanMode reviewed on the phone", () => {
  const emulator = useEmulator();

  it("Telegram shows the plan's first screen and its three choices; Keep planning denies without interrupting", async () => {
    const h: Harness = await openHarness(emulator(), { link: true });
    h.slot.watch(100);
    try {
      const hook = permissionHookInProcess(h, fixture(PLAN));
      const message = await shown(h, "Approve Claude Code's plan");
      expect(message.text).toContain("## Refactor auth");
      expect(message.text).toContain("3. Add tests for expired and malformed tokens.");
      expect(message.text).toContain("More on the 🌐 web page.");
      const texts = message.buttons.map((b) => b.text);
      expect(texts).toContain("c) Keep planning");
      expect(texts).toContain("🌐 Web page");
      // The plan is longer than the prompt: it is approved only where it is shown whole.
      expect(texts.filter((t) => /Approve|Allow|Always/.test(t))).toEqual([]);
      const { id, card } = await filedQuestion(h);
      expect(card.kind).toBe("plan");
      expect(card.input).toMatchObject({
        options: [
          { id: "approve", label: "Approve" },
          { id: "approve-accept-edits", label: "Approve and accept edits for this session" },
          { id: "keep-planning", label: "Keep planning" },
        ],
      });
      await tapConfirmed(h, message, buttonData(message, "c) Keep planning"));
      expect(decisionIn(await hook.done)).toEqual({
        behavior: "deny",
        message: "The owner wants you to keep planning: revise the plan and present it again.",
      });
      expect(loadQuestion(h, id).card.status).toBe("answered");
    } finally {
      await h.slot.close();
    }
  });

  it("the web page renders the whole plan as escaped Markdown; Approve and accept edits sets the session's mode", async () => {
    const web = await webFixture();
    const input = { ...toolInputOf(PLAN) };
    input.plan = `${input.plan}\n<script>alert(1)</script> [site](javascript:alert(1))\n`;
    const hook = permissionHookInProcess(web.box, fixture(PLAN, { tool_input: input }));
    const { id } = await filedQuestion(web.box);
    const link = web.link(id);
    const page = await (await web.app.request(link)).text();
    expect(page).toContain("<h2>Refactor auth</h2>");
    expect(page).toContain("<code>src/server.ts</code>");
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page).not.toContain("<script>alert(1)");
    expect(page).not.toContain('href="javascript:');
    const body = new URLSearchParams({ form: formTokenIn(page), action: "answer" });
    const shownField = /name="shown" value="([^"]+)"/.exec(page)?.[1];
    if (shownField) body.set("shown", shownField);
    body.set("choice", "approve-accept-edits");
    expect((await web.app.request(link, { method: "POST", body })).status).toBe(303);
    expect(decisionIn(await hook.done)).toEqual({
      behavior: "allow",
      updatedInput: input,
      updatedPermissions: [{ type: "setMode", mode: "acceptEdits", destination: "session" }],
    });
  });

  it("qbridge chat prints the whole plan; Approve echoes the input, and a Keep planning note becomes the message", async () => {
    const box = await makeBox();
    const keyboard = keyboardOn(box);
    try {
      const approved = permissionHookInProcess(box, fixture(PLAN));
      await filedQuestion(box);
      await keyboard.slot.reconcile();
      expect(keyboard.screen()).toContain("3. Add tests for expired and malformed tokens.");
      await keyboard.type("a");
      await keyboard.type("yes");
      expect(decisionIn(await approved.done)).toEqual({
        behavior: "allow",
        updatedInput: toolInputOf(PLAN),
      });

      const revised = permissionHookInProcess(box, fixture(PLAN));
      await filedQuestion(box);
      await keyboard.slot.reconcile();
      await keyboard.type("c - Keep the admin page out of it");
      await keyboard.type("yes");
      expect(decisionIn(await revised.done)).toEqual({
        behavior: "deny",
        message: "The owner wants you to keep planning: Keep the admin page out of it",
      });
    } finally {
      await keyboard.slot.close();
    }
  });
});
