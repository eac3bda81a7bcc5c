// Story: an agent makes two tool calls with the same command in one session (two subagents,
// a retry while the first still waits), and a hook runs for each. Each call is its own question,
// so one tap allows one run; the same call delivered to two hooks (the same tool_use_id) is one
// question, and its answer reaches both. Without a call id, each hook is its own call.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HookLifetime } from "../../src/hooks/lifetime.ts";
import { runPermissionHook } from "../../src/hooks/permission-hook.ts";
import { answerQuestion } from "../../src/questions/answer.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { cleanupBoxes, makeBox, type TestBox } from "../support/box.ts";
import { eventually } from "../support/child.ts";
import { fixture, standIn } from "./hook-support.ts";

afterEach(cleanupBoxes);

/** A hook run in this process, ended by the test instead of a signal. */
function hookRun(box: TestBox, input: string) {
  const controller = new AbortController();
  const lifetime: HookLifetime = {
    signal: controller.signal,
    ended: () => (controller.signal.aborted ? "signal" : undefined),
    dispose() {},
  };
  const printed: Record<string, unknown>[] = [];
  const done = runPermissionHook(box, input, {
    timeoutSeconds: 600,
    lifetime,
    print: (value) => printed.push(value),
    tell: () => undefined,
  });
  return { printed, done, end: () => controller.abort("signal") };
}

const call = (id?: string) =>
  fixture("claude-permission-bash", id === undefined ? {} : { tool_use_id: id });

async function pendingCount(box: TestBox, count: number): Promise<string[]> {
  return eventually(
    () => {
      const ids = pendingQuestions(box).pending.map((q) => q.id);
      return ids.length === count ? ids : undefined;
    },
    10_000,
    `${count} pending question(s)`,
  );
}

/** How many hooks wait on a question, as their lease records say (src/slot/hook-lease.ts). */
function waiters(box: TestBox, id: string): number {
  const dir = join(box.box.paths.locksDir, "hooks");
  if (!existsSync(dir)) return 0;
  return readdirSync(dir).filter((name) => {
    const record = JSON.parse(readFileSync(join(dir, name), "utf8")) as { questions: string[] };
    return record.questions.includes(id);
  }).length;
}

describe("permission hooks for tool calls with the same input", () => {
  it("two calls are two questions; the same call twice is one, and its answer reaches both hooks", async () => {
    const box = await makeBox();
    await standIn(box.dir);
    const first = hookRun(box, call("toolu_01"));
    const [asked] = await pendingCount(box, 1);
    const second = hookRun(box, call("toolu_02"));
    await pendingCount(box, 2);
    const again = hookRun(box, call("toolu_01"));
    await eventually(() => (waiters(box, asked as string) === 2 ? true : undefined));
    expect(pendingQuestions(box).pending).toHaveLength(2);

    await answerQuestion(box, asked as string, { text: "allow-once" }, { via: "telegram" });
    await Promise.all([first.done, again.done]);
    const allow = {
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
    };
    expect(first.printed).toEqual([allow]);
    expect(again.printed).toEqual([allow]);
    // The other call's question still waits: one tap allowed one call.
    expect(second.printed).toEqual([]);
    expect(pendingQuestions(box).pending).toHaveLength(1);
    second.end();
    await second.done;
    expect(second.printed).toEqual([]);
  });

  it("without the agent's call id, each hook is its own call", async () => {
    const box = await makeBox();
    await standIn(box.dir);
    const runs = [hookRun(box, call()), hookRun(box, call())];
    await pendingCount(box, 2);
    for (const run of runs) run.end();
    await Promise.all(runs.map((run) => run.done));
    expect(runs.map((run) => run.printed)).toEqual([[], []]);
  });
});
