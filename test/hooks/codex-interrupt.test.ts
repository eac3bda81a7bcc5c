// Story: Codex waits on a permission question shown on the boxholder's phone, and the person
// presses Esc at the computer. Codex kills the waiting hook and runs its Interrupt hook, `qbridge
// hook interrupt`, which withdraws that session's open questions at once: the Telegram message
// says "stopped at the computer", and it prints only what Codex's Interrupt output allows.
// Another session's question stays open. `qbridge hook install --codex` installs it (Codex
// caps its time at 3 s); Claude Code has no Interrupt hook and gets none.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runInterruptHook } from "../../src/hooks/interrupt-hook.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { cleanupBoxes, cliEnv, makeBox, runCli, scratchDir } from "../support/box.ts";
import { eventually } from "../support/child.ts";
import { type Harness, openHarness, useEmulator } from "../support/telegram.ts";
import { fixtureText } from "./agent-fixtures.ts";
import { CodexInterruptOutput } from "./agent-outputs.ts";
import { editedTo, fixture, permissionHookInProcess, shown } from "./hook-support.ts";

const emulator = useEmulator();
const opened: Harness[] = [];
afterEach(async () => {
  for (const h of opened.splice(0)) await h.slot.close();
  cleanupBoxes();
});

describe("Codex's Interrupt hook", () => {
  it("withdraws the session's open question at once; the Telegram message says it stopped at the computer", async () => {
    const h = await openHarness(emulator());
    h.slot.watch(100);
    opened.push(h);
    const waiting = permissionHookInProcess(h, fixture("codex-permission-mcp"));
    const message = await shown(h, "Run github's create_issue");
    const other = permissionHookInProcess(
      h,
      fixture("codex-permission-bash", { session_id: "s-2" }),
    );
    await eventually(() => pendingQuestions(h).pending.length === 2 || undefined, 20_000);
    const idOf = (start: string) =>
      pendingQuestions(h).pending.find((q) => q.card.prompt.startsWith(start))?.id;
    const [id, otherId] = [idOf("Run github"), idOf("Allow Bash")];

    let printed: Record<string, unknown> | undefined;
    const withdrawn = await runInterruptHook(h, fixtureText("codex-interrupt"), {
      print: (value) => {
        printed = value;
      },
    });
    expect(withdrawn).toBe(1);
    expect(CodexInterruptOutput.parse(printed)).toEqual({
      systemMessage: "qbridge withdrew 1 question from the phone: stopped at the computer.",
    });
    expect(loadQuestion(h, id as string).card).toMatchObject({
      status: "withdrawn",
      "withdrawn-reason": "stopped at the computer",
    });
    expect(await waiting.done).toBeUndefined();
    await editedTo(h, message.messageId, "stopped at the computer");

    expect(loadQuestion(h, otherId as string).card.status).toBe("pending");
    const again = await runInterruptHook(h, fixtureText("codex-interrupt"), {
      print: () => {
        throw new Error("printed with nothing withdrawn");
      },
    });
    expect(again).toBe(0);
    expect(loadQuestion(h, otherId as string).card.status).toBe("pending");
    await runInterruptHook(
      h,
      JSON.stringify({ ...JSON.parse(fixtureText("codex-interrupt")), session_id: "s-2" }),
      { print: () => undefined },
    );
    expect(await other.done).toBeUndefined();
  });

  it("is installed for Codex with Codex's 3 s, runs as `qbridge hook interrupt`, and is never installed for Claude Code", async () => {
    const box = await makeBox();
    const home = scratchDir("qbridge-home-");
    const env = { HOME: home, QBRIDGE_BOX: box.dir };
    expect((await runCli(["hook", "install", "--codex"], { env, cwd: home })).code).toBe(0);
    const codex = JSON.parse(readFileSync(join(home, ".codex", "hooks.json"), "utf8"));
    const [handler] = codex.hooks.Interrupt[0].hooks;
    expect(handler).toMatchObject({ type: "command", timeout: 3 });
    expect(handler.command).toMatch(/hook interrupt --agent codex --box \S+ --timeout 3$/);

    expect((await runCli(["hook", "install", "--claude"], { env, cwd: home })).code).toBe(0);
    const claude = JSON.parse(readFileSync(join(home, ".claude", "settings.json"), "utf8"));
    expect(Object.keys(claude.hooks)).not.toContain("Interrupt");

    const run = await runCli(["hook", "interrupt", "--agent", "codex", "--box", box.dir], {
      env: cliEnv(box.dir),
      input: fixtureText("codex-interrupt"),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
  });
});
