// The permission hook as a coding agent runs it, each figure beside its floor in the same run:
// (f) hook start to question on the phone: the built `qbridge hook permission` spawned with
//     Claude Code's PermissionRequest fixture on stdin, until the telegram-test-api emulator
//     holds the bot's message, vs `qbridge ask` of a confirm question spawned the same way until
//     its message is held (the same node start, box write and slot; the hook's own work is the
//     difference);
// (g) the confirming tap of "Allow once" until the hook prints its decision, vs the same tap
//     until its answerCallbackQuery reaches the emulator (tap to ack).
// A real `qbridge serve` (Telegram on the emulator, on loopback) presents both; the rounds
// alternate so both figures meet the same load. Bounded: BENCH_HOOK_RUNS rounds (default 5).

import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { failed, ms, now, phoneRig } from "./phone-rig.ts";
import { row } from "./stats.ts";

const RUNS = Number(process.env.BENCH_HOOK_RUNS ?? 5);
const FIXTURE = join(import.meta.dirname, "../test/hooks/fixtures/claude-permission-bash.json");

/** When a child first writes to stdout, and all it wrote once it exits. */
function firstOutput(child: ChildProcess): { at: Promise<bigint>; all: Promise<string> } {
  let text = "";
  const at = new Promise<bigint>((resolve) => {
    child.stdout?.once("data", () => resolve(now()));
  });
  child.stdout?.on("data", (d) => {
    text += d;
  });
  const all = new Promise<string>((resolve) => child.once("exit", () => resolve(text)));
  return { at, all };
}

/** The rest of the floor's card: what a permission question's card says beside its prompt. */
const CARD = ["--memo", "The log folder is growing.", "--directive", "Rotate the logs."];

export async function benchHook(): Promise<string[]> {
  const rig = await phoneRig("hook");
  const input = JSON.parse(readFileSync(FIXTURE, "utf8"));
  const figures = { hook: [] as number[], ask: [] as number[], decision: [] as number[] };
  const acked: number[] = [];
  const acks = rig.arrivals("answerCallbackQuery");
  try {
    await rig.startServe();
    // Round -1 warms serve's paths up (the first presentation, the first tap) and is not counted.
    for (let i = -1; i < RUNS; i++) {
      // The floor: a confirm question filed by `qbridge ask`, until it is on the phone.
      const round = i < 0 ? "warm-up" : String(i);
      const prompt = `Bench hook floor ${round}: may I rotate the logs?`;
      const shownAsk = rig.held(prompt);
      const askStart = now();
      const ask = rig.cli(["ask", "--json", "--prompt", prompt, "--type", "confirm", ...CARD]);
      const asked = firstOutput(ask);
      const askAt = (await Promise.race([shownAsk, failed(ask, "qbridge ask")])).at;
      const { id } = JSON.parse(await asked.all) as { id: string };
      await firstOutput(rig.cli(["withdraw", id])).all;
      await sleep(500);

      // The hook, with the fixture's command made unique to the round.
      const command = `rm -rf build-${round}`;
      const text = JSON.stringify({
        ...input,
        session_id: `bench-${round}`,
        tool_input: { ...input.tool_input, command },
      });
      const shownHook = rig.held(command);
      const t0 = now();
      const hook = rig.cli(["hook", "permission"]);
      const printed = firstOutput(hook);
      hook.stdin?.end(text);
      const { at: hookAt, messageId } = await Promise.race([
        shownHook,
        failed(hook, "qbridge hook"),
      ]);
      const acksFirst = acks.length;
      await rig.tap(messageId, "Allow once");
      // The first tap's own ack is in before the timed tap, so the next ack is the timed one's.
      await rig.until(() => (acks.length > acksFirst ? true : undefined), "the first tap's ack");
      const acksBefore = acks.length;
      const tap = await rig.tap(messageId, "Confirm");
      const decidedAt = await printed.at;
      const output = await printed.all;
      if (!output.includes('"behavior":"allow"')) throw new Error(`the hook printed: ${output}`);
      const ackAt = await rig.until(() => acks[acksBefore], "the confirming tap's ack");
      if (i >= 0) {
        figures.ask.push(ms(askStart, askAt));
        figures.hook.push(ms(t0, hookAt));
        figures.decision.push(ms(tap, decidedAt));
        acked.push(ms(tap, ackAt));
      }
      await sleep(500);
    }
  } finally {
    await rig.stop();
  }
  return [
    row("hook start→question on the phone", figures.hook, "qbridge ask→on the phone", figures.ask),
    row("tap→decision printed by the hook", figures.decision, "tap→ack (same taps)", acked),
  ];
}
