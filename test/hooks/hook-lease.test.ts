// Story: no card outlives its hook. The agent ends its permission hook with SIGKILL (Codex does
// on Esc): the running service sees the hook's lease gone and withdraws the question, the phone
// and the web page say the agent stopped waiting, and a late tap records nothing. With nobody
// to reach (no service presents for the box), the hook files nothing and decides nothing at
// once, so the agent asks at its own prompt. And a hook whose agent never closes its input
// still ends on SIGTERM.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { createWebApp } from "../../src/web/app.ts";
import { loadSecret, signLink } from "../../src/web/links.ts";
import { CLI, cleanupBoxes, cliEnv, gitLog, makeBox, T0 } from "../support/box.ts";
import { eventually, watched } from "../support/child.ts";
import { buttonData, type Harness, openHarness, useEmulator } from "../support/telegram.ts";
import { editedTo, fixture, printed, shown, startHook } from "./hook-support.ts";

const emulator = useEmulator();
const opened: Harness[] = [];
afterEach(async () => {
  for (const h of opened.splice(0)) await h.slot.close();
  cleanupBoxes();
});

const BASH = "Allow Bash: rm -rf node_modules?";

describe("a hook killed with SIGKILL", () => {
  it("has its question withdrawn by the running service; the phone and the page say the agent stopped waiting, and a late tap records nothing", async () => {
    const h = await openHarness(emulator());
    h.slot.watch(100);
    opened.push(h);
    const hook = startHook("permission", h.dir, fixture("claude-permission-bash"));
    const message = await shown(h, BASH);
    const [view] = pendingQuestions(h).pending;
    const id = view?.id as string;

    await hook.kill("SIGKILL");
    const status = await eventually(
      () => (loadQuestion(h, id).card.status === "withdrawn" ? "withdrawn" : undefined),
      10_000,
      "the question withdrawn",
    );
    expect(status).toBe("withdrawn");
    expect(loadQuestion(h, id).card["withdrawn-reason"]).toMatch(/^the agent stopped waiting/);
    await editedTo(h, message.messageId, "Withdrawn by the asker: the agent stopped waiting");

    await h.owner.tap(buttonData(message, "a)"), message.messageId);
    await h.pump();
    const ack = h.sent("answerCallbackQuery").at(-1)?.payload.text;
    expect(String(ack)).toContain("the agent stopped waiting");
    expect(String(ack)).not.toContain("Recorded");
    expect(loadQuestion(h, id).card.status).toBe("withdrawn");
    expect((await gitLog(h.dir)).filter((s) => s.startsWith("answer: "))).toEqual([]);

    const secret = loadSecret(h.box);
    const app = createWebApp({
      core: h,
      config: loadConfig({ QBRIDGE_WEB_PORT: "0" }, { box: h.dir }),
      secret,
    });
    const link = `/q/${id}?s=${signLink(secret, { question: id }, h.box.clock.now())}`;
    const page = await (await app.request(link)).text();
    expect(page).toContain("the agent stopped waiting");
    expect(page).not.toContain('name="choice"');
  });
});

describe("a hook with nobody to reach", () => {
  it("files nothing, prints no decision, ends 0 with one line on stderr saying why", async () => {
    const box = await makeBox();
    const hook = startHook("permission", box.dir, fixture("claude-permission-bash"), [], {
      reachable: false,
    });
    expect(await hook.exited).toBe(0);
    expect(printed(hook)).toBeUndefined();
    const lines = hook.stderr().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("nobody can be reached for the box");
    expect(lines[0]).toContain("asks at its own prompt");
    expect(lines[0]).toContain("qbridge serve --box");
    expect(pendingQuestions(box).pending).toEqual([]);
    expect((await gitLog(box.dir)).filter((s) => s.startsWith("ask: "))).toEqual([]);
  });

  it("the Elicitation hook likewise files nothing and prints nothing", async () => {
    const box = await makeBox();
    const hook = startHook("elicitation", box.dir, fixture("claude-elicitation-string"), [], {
      reachable: false,
    });
    expect(await hook.exited).toBe(0);
    expect(printed(hook)).toBeUndefined();
    expect(hook.stderr()).toContain("nobody can be reached for the box");
    expect(pendingQuestions(box).pending).toEqual([]);
  });
});

/** Whether a process has a handler of its own for SIGTERM (Linux: /proc/PID/status, SigCgt). */
function catchesSigterm(pid: number): boolean {
  const line = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return line !== null && (BigInt(`0x${line[1]}`) & (1n << 14n)) !== 0n;
}

/** The CPU time a process has used (Linux: /proc/PID/stat, utime + stime), and its state. */
function cpuOf(pid: number): { ticks: number; state: string } {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /, "")
    .split(" ");
  return { ticks: Number(fields[11]) + Number(fields[12]), state: fields[0] as string };
}

/** Resolves once the process handles SIGTERM itself and sleeps, its CPU time unchanged. */
async function waitingForInput(pid: number): Promise<void> {
  let before = -1;
  await eventually(
    async () => {
      await new Promise((r) => setTimeout(r, 150));
      const { ticks, state } = cpuOf(pid);
      const idle = ticks === before && state === "S" && catchesSigterm(pid);
      before = ticks;
      return idle || undefined;
    },
    20_000,
    "the hook waiting for its input",
  );
}

describe("a hook whose agent never closes its input", () => {
  it("ends on SIGTERM while it reads, filing nothing", async () => {
    const box = await makeBox();
    const child = spawn(process.execPath, [CLI, "hook", "permission", "--box", box.dir], {
      cwd: box.dir,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: box.dir,
        ...cliEnv(box.dir, { QBRIDGE_TIME: T0 }),
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const hook = watched(child);
    child.stdin.write(fixture("claude-permission-bash").slice(0, 40));
    // Sent once the hook sits waiting for the rest of its input with a SIGTERM handler of its
    // own: only the command's own handling can end it then.
    await waitingForInput(child.pid as number);
    const ended = hook.kill("SIGTERM").then(() => hook.ended());
    const how = await Promise.race([
      ended,
      new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 10_000)),
    ]);
    child.kill("SIGKILL");
    expect(how).toBe("0");
    expect(printed(hook)).toBeUndefined();
    expect(pendingQuestions(box).pending).toEqual([]);
  });
});
