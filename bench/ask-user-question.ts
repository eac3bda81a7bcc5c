// Claude Code's AskUserQuestion answered on the phone, each figure beside its floor in the same
// rounds: the built `qbridge hook permission` spawned with the one-question fixture (its
// question made unique to the round) against a real `qbridge serve` on the telegram-test-api
// emulator; the tap of an option until the hook prints its decision (allow with the answers),
// vs the same tap until its answerCallbackQuery reaches the emulator (tap to ack). Bounded:
// BENCH_HOOK_RUNS rounds (default 5).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { failed, ms, now, phoneRig } from "./phone-rig.ts";
import { row } from "./stats.ts";

const RUNS = Number(process.env.BENCH_HOOK_RUNS ?? 5);
const FIXTURE = join(
  import.meta.dirname,
  "../test/hooks/fixtures/claude-permission-askuserquestion-one.json",
);

export async function benchAskUserQuestion(): Promise<string[]> {
  const rig = await phoneRig("questions");
  const input = JSON.parse(readFileSync(FIXTURE, "utf8"));
  const [first] = input.tool_input.questions;
  const decided: number[] = [];
  const acked: number[] = [];
  const acks = rig.arrivals("answerCallbackQuery");
  try {
    await rig.startServe();
    // Round -1 warms serve's paths up and is not counted.
    for (let i = -1; i < RUNS; i++) {
      const question = `Which database should service ${i + 1} use?`;
      const text = JSON.stringify({
        ...input,
        session_id: `bench-questions-${i + 1}`,
        tool_input: { questions: [{ ...first, question }] },
      });
      const shown = rig.held(question);
      const hook = rig.cli(["hook", "permission", "--agent", "claude"]);
      let out = "";
      const printed = new Promise<bigint>((resolve) => {
        hook.stdout?.on("data", (d) => {
          out += d;
          resolve(now());
        });
      });
      hook.stdin?.end(text);
      const { messageId } = await Promise.race([shown, failed(hook, "qbridge hook")]);
      const acksBefore = acks.length;
      const tap = await rig.tap(messageId, "SQLite");
      const decidedAt = await printed;
      await new Promise((resolve) => hook.once("exit", resolve));
      if (!out.includes('"answers"')) throw new Error(`the hook printed: ${out}`);
      const ackAt = await rig.until(() => acks[acksBefore], "the tap's ack");
      if (i >= 0) {
        decided.push(ms(tap, decidedAt));
        acked.push(ms(tap, ackAt));
      }
      await sleep(500);
    }
  } finally {
    await rig.stop();
  }
  return [row("AskUserQuestion: tap→decision printed", decided, "tap→ack (same taps)", acked)];
}
