// Story: Claude Code asks its owner questions with AskUserQuestion, through the same
// PermissionRequest hook. Each question becomes a card in the agent's own words (its labels,
// the descriptions under them, one pick or several, own words last), presented one at a time
// in the set's order, never offering an allow for the session or always; once every question
// is answered, the hook prints allow with the questions echoed and the answers, as Claude Code
// documents it (a plain allow would leave its dialog waiting). A partly answered set is never
// sent: the hook's end withdraws every question of the set.

import { afterEach, describe, expect, it } from "vitest";
import { answerQuestion } from "../../../src/questions/answer.ts";
import { dismissQuestion } from "../../../src/questions/close.ts";
import type { Core } from "../../../src/questions/core.ts";
import { pendingQuestions } from "../../../src/questions/state.ts";
import { loadQuestion } from "../../../src/questions/store.ts";
import { cleanupBoxes, makeBox } from "../../support/box.ts";
import { eventually } from "../../support/child.ts";
import { keyboardOn } from "../../support/keyboard.ts";
import { buttonData, openHarness, useEmulator } from "../../support/telegram.ts";
import { formTokenIn, webFixture } from "../../web/web-support.ts";
import { toolInputOf } from "../agent-fixtures.ts";
import { ClaudePermissionOutput } from "../agent-outputs.ts";
import { fixture, permissionHookInProcess, printed, shown, startHook } from "../hook-support.ts";

afterEach(cleanupBoxes);

const ONE = "claude-permission-askuserquestion-one";
const FOUR = "claude-permission-askuserquestion-four";
const MULTI = "claude-permission-askuserquestion-multiselect";

/** What Claude Code reads of what the hook printed, checked against its documented schema. */
function decisionIn(printed: Record<string, unknown> | undefined) {
  return ClaudePermissionOutput.parse(printed).hookSpecificOutput.decision;
}

/** The pending questions of the box in the slot's order, once `count` are filed. */
async function filed(core: Core, count: number) {
  return eventually(
    () => {
      const { pending } = pendingQuestions(core);
      return pending.length === count ? pending : undefined;
    },
    20_000,
    `${count} questions filed`,
  );
}

describe("AskUserQuestion answered on the phone", () => {
  it("one question at the keyboard: its own words, labels and descriptions, no session or always; the answer goes back with the questions", async () => {
    const box = await makeBox();
    const k = keyboardOn(box);
    const hook = permissionHookInProcess(box, fixture(ONE));
    const [view] = await filed(box, 1);
    await k.slot.reconcile();
    const screen = k.screen();
    expect(screen).toContain("Which database should the service use?");
    expect(screen).toContain("a) PostgreSQL");
    expect(screen).toContain("SQLite: A file next to the service: no server, one writer at a time");
    expect(screen).not.toContain("Allow for this session");
    expect(screen).not.toContain("Always allow");
    expect(view?.card.kind).toBe("question");
    expect(await k.type("b")).toContain("Recorded: SQLite");
    const decision = decisionIn(await hook.done);
    expect(decision).toEqual({
      behavior: "allow",
      updatedInput: {
        questions: toolInputOf(ONE).questions,
        answers: { "Which database should the service use?": "SQLite" },
      },
    });
    await k.slot.close();
  });

  it("own words typed for the own-words option go back as the answer itself", async () => {
    const box = await makeBox();
    const hook = permissionHookInProcess(box, fixture(ONE));
    const [view] = await filed(box, 1);
    const id = view?.id as string;
    const attempt = { text: "DuckDB, embedded", option: "_other", other: "DuckDB, embedded" };
    await answerQuestion(box, id, attempt, { via: "telegram", by: "1001" });
    const decision = decisionIn(await hook.done);
    expect(decision.behavior === "allow" && decision.updatedInput?.answers).toEqual({
      "Which database should the service use?": "DuckDB, embedded",
    });
  });

  it("four questions are presented in their order and, answered on the web page (checkboxes for the multi-select), go back whole", async () => {
    const web = await webFixture();
    const hook = permissionHookInProcess(web.box, fixture(FOUR));
    const views = await filed(web.box, 4);
    const questions = toolInputOf(FOUR).questions as { question: string }[];
    expect(views.map((v) => v.card.prompt)).toEqual(questions.map((q) => q.question));
    const picks = [["option-2"], ["option-1", "option-2"], ["option-3"], ["option-1"]];
    for (const [index, view] of views.entries()) {
      const link = web.link(view.id);
      const page = await (await web.app.request(link)).text();
      if (index === 1) expect(page).toContain('type="checkbox" name="choice" value="option-1"');
      const body = new URLSearchParams({ form: formTokenIn(page), action: "answer" });
      const shown = /name="shown" value="([^"]+)"/.exec(page)?.[1];
      if (shown) body.set("shown", shown);
      for (const pick of picks[index] as string[]) body.append("choice", pick);
      expect((await web.app.request(link, { method: "POST", body })).status).toBe(303);
    }
    const decision = decisionIn(await hook.done);
    expect(decision).toEqual({
      behavior: "allow",
      updatedInput: {
        questions,
        answers: {
          "How should I format the output?": "Detailed",
          "Which sections should I include?": "Introduction, Conclusion",
          "Which library should we use for date formatting?": "Temporal polyfill",
          "Where should the release notes go?": "CHANGELOG.md",
        },
      },
    });
  });

  it("a set answered in part is never sent: the hook's end withdraws every question of it", async () => {
    const box = await makeBox();
    const hook = permissionHookInProcess(box, fixture(FOUR), { timeoutSeconds: 2 });
    const views = await filed(box, 4);
    const first = views[0]?.id as string;
    await answerQuestion(
      box,
      first,
      { text: "a", option: "option-1" },
      { via: "telegram", by: "1001" },
    );
    expect(await hook.done).toBeUndefined();
    const statuses = views.map((v) => loadQuestion(box, v.id).card.status);
    expect(statuses).toEqual(["answered", "withdrawn", "withdrawn", "withdrawn"]);
  });

  it("one question set aside on the phone tells Claude Code no and withdraws the rest", async () => {
    const box = await makeBox();
    const hook = permissionHookInProcess(box, fixture(FOUR));
    const views = await filed(box, 4);
    await dismissQuestion(box, views[1]?.id as string, { via: "telegram", by: "1001" });
    await answerQuestion(
      box,
      views[0]?.id as string,
      { text: "a", option: "option-1" },
      {
        via: "telegram",
        by: "1001",
      },
    );
    const decision = decisionIn(await hook.done);
    expect(decision.behavior).toBe("deny");
    const statuses = views.map((v) => loadQuestion(box, v.id).card.status);
    expect(statuses.slice(2)).toEqual(["withdrawn", "withdrawn"]);
  });
});

describe("AskUserQuestion's multi-select on Telegram, through `qbridge hook permission`", () => {
  const emulator = useEmulator();

  it("toggling options and pressing Send answers Claude Code with the labels joined", async () => {
    const h = await openHarness(emulator());
    h.slot.watch(100);
    try {
      const hook = startHook("permission", h.dir, fixture(MULTI));
      const message = await shown(h, "Which checks should run before each commit?");
      expect(message.text).toContain("Lint: biome check on the whole tree");
      const labels = message.buttons.map((b) => b.text);
      expect(labels.slice(0, 5)).toEqual([
        "☐ a) Unit tests",
        "☐ b) Lint",
        "☐ c) Type check",
        "☐ d) Other (type your own answer)",
        "📨 Send",
      ]);
      expect(labels.join(" ")).not.toMatch(/session|Always/);
      await h.owner.tap(buttonData(message, "☐ a)"), message.messageId);
      await h.pump();
      await h.owner.tap(buttonData(message, "☐ c)"), message.messageId);
      await h.pump();
      await h.owner.tap(buttonData(message, "📨 Send"), message.messageId);
      await h.pump();
      expect(await hook.exited).toBe(0);
      expect(decisionIn(printed(hook) as Record<string, unknown>)).toEqual({
        behavior: "allow",
        updatedInput: {
          questions: toolInputOf(MULTI).questions,
          answers: { "Which checks should run before each commit?": "Unit tests, Type check" },
        },
      });
    } finally {
      await h.slot.close();
    }
  });
});
