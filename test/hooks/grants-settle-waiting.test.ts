// Story: an agent makes two tool calls of one session at once, so two permission hooks wait.
// The boxholder taps "Allow for this session" (or "Always allow") on one: the grant it leaves
// answers the other waiting request it covers at once, in its own commit audited as covered
// by that grant; both hooks print their allow, and the phone's message for the other says so.
// A waiting request the grant does not cover keeps waiting.

import { afterEach, describe, expect, it } from "vitest";
import { GrantStore } from "../../src/ledger/grants.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import type { Core } from "../../src/questions/core.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, gitLog, makeBox } from "../support/box.ts";
import { eventually } from "../support/child.ts";
import { type Harness, openHarness, useEmulator } from "../support/telegram.ts";
import {
  ClaudePermissionOutput,
  CodexPermissionOutput,
  editedTo,
  fixture,
  permissionHookInProcess,
  shown,
} from "./hook-support.ts";

const emulator = useEmulator();
const opened: Harness[] = [];
afterEach(async () => {
  for (const h of opened.splice(0)) await h.slot.close();
  cleanupBoxes();
});

/** A Claude Code Bash request of session "abc123" whose suggested rule is `npm run test:*`. */
function npmRun(script: string): string {
  return fixture("claude-permission-bash", {
    tool_input: { command: `npm run ${script}`, description: `Run ${script}` },
    permission_suggestions: [
      {
        type: "addRules",
        rules: [{ toolName: "Bash", ruleContent: "npm run test:*" }],
        behavior: "allow",
        destination: "localSettings",
      },
    ],
  });
}

/** The pending question whose prompt says `words`, once its hook filed it. */
function waiting(core: Core, words: string) {
  return eventually(
    () => pendingQuestions(core).pending.find((q) => q.card.prompt.includes(words)),
    20_000,
    `the question "${words}"`,
  );
}

/** A hook run in process, and the question it filed (the one pending question that is new). */
async function filed(core: Core, input: string) {
  const before = new Set(pendingQuestions(core).pending.map((q) => q.id));
  const hook = permissionHookInProcess(core, input);
  const question = await eventually(
    () => pendingQuestions(core).pending.find((q) => !before.has(q.id)),
    20_000,
    "the hook's question",
  );
  return { hook, id: question.id };
}

/** Records the boxholder's pick of `option` on question `id`, as a tap on their phone does. */
function answer(core: Core, id: string, option: string) {
  return answerQuestion(core, id, { text: option, option }, { via: "telegram", by: "1001" });
}

describe("a grant settles what is already waiting", () => {
  it("Allow for this session on one of two waiting requests allows both; the other's message says the grant answered it", async () => {
    const h = await openHarness(emulator());
    h.slot.watch(100);
    opened.push(h);
    const lint = permissionHookInProcess(h, npmRun("test lint"));
    const lintMessage = await shown(h, "Allow Bash: npm run test lint?");
    const unit = permissionHookInProcess(h, npmRun("test unit"));
    const unitQuestion = await waiting(h, "npm run test unit");
    const lintId = (await waiting(h, "npm run test lint")).id;

    await answer(h, unitQuestion.id, "allow-session");
    const allowed = { behavior: "allow" };
    expect(ClaudePermissionOutput.parse(await unit.done).hookSpecificOutput.decision).toEqual(
      allowed,
    );
    expect(ClaudePermissionOutput.parse(await lint.done).hookSpecificOutput.decision).toEqual(
      allowed,
    );

    const [grant] = new GrantStore(h.ledger).all();
    expect(grant).toMatchObject({ pattern: "prefix:npm run test", questionId: unitQuestion.id });
    const lintCard = loadQuestion(h, lintId).card;
    expect(lintCard).toMatchObject({
      status: "answered",
      "answered-via": "grant",
      "answered-by": grant?.id,
      answer: { selected: "allow-once" },
    });
    const answers = (await gitLog(h.dir)).filter((s) => s.startsWith("answer: "));
    expect(answers).toHaveLength(2);
    const audit = h.ledger.auditFor(lintId).filter((row) => row.action === "answer");
    expect(audit).toMatchObject([
      { surface: "grant", verbatim: `covered by grant ${grant?.id}`, outcome: "applied" },
    ]);
    expect(new GrantStore(h.ledger).get(grant?.id as string)?.uses).toBe(1);
    await editedTo(h, lintMessage.messageId, "Answered via grant: Allowed by this session's grant");
  });

  it("an Always allow settles the waiting request its rule covers; one it does not cover keeps waiting", async () => {
    const box = await makeBox();
    const lint = permissionHookInProcess(box, npmRun("test lint"));
    const lintId = (await waiting(box, "npm run test lint")).id;
    const other = permissionHookInProcess(box, npmRun("build"));
    const otherId = (await waiting(box, "npm run build")).id;
    const unit = permissionHookInProcess(box, npmRun("test unit"));
    const unitId = (await waiting(box, "npm run test unit")).id;

    await answer(box, unitId, "allow-always");
    const { decision } = ClaudePermissionOutput.parse(await unit.done).hookSpecificOutput;
    expect(decision).toMatchObject({
      behavior: "allow",
      updatedPermissions: [{ type: "addRules" }],
    });
    expect(ClaudePermissionOutput.parse(await lint.done).hookSpecificOutput.decision).toEqual({
      behavior: "allow",
    });
    expect(loadQuestion(box, lintId).card["answered-via"]).toBe("grant");

    expect(loadQuestion(box, otherId).card.status).toBe("pending");
    await answer(box, otherId, "deny");
    expect(ClaudePermissionOutput.parse(await other.done).hookSpecificOutput.decision).toEqual({
      behavior: "deny",
      message: expect.stringContaining("denied"),
    });
  });

  it("another session's waiting request is not covered; Codex's covered request prints Codex's allow", async () => {
    const box = await makeBox();
    const codex = (session: string) => fixture("codex-permission-bash", { session_id: session });
    const sibling = await filed(box, codex("s-1"));
    const stranger = await filed(box, codex("s-2"));
    const first = await filed(box, codex("s-1"));

    await answer(box, first.id, "allow-session");
    await first.hook.done;
    expect(
      CodexPermissionOutput.parse(await sibling.hook.done).hookSpecificOutput.decision,
    ).toEqual({ behavior: "allow" });
    expect(pendingQuestions(box).pending.map((q) => q.id)).toEqual([stranger.id]);
    await answer(box, stranger.id, "deny");
    expect(
      CodexPermissionOutput.parse(await stranger.hook.done).hookSpecificOutput.decision,
    ).toEqual({ behavior: "deny", message: expect.stringContaining("denied") });
  });
});
