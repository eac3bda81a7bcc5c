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

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort, OWNER, startEmulator, TOKEN } from "../test/support/telegram.ts";
import { nodeStartEnv } from "./fixture.ts";
import { row } from "./stats.ts";

const RUNS = Number(process.env.BENCH_HOOK_RUNS ?? 5);
const ROOT = join(import.meta.dirname, "..");
const CLI = join(ROOT, "bin/qbridge.cjs");
const FIXTURE = join(ROOT, "test/hooks/fixtures/claude-permission-bash.json");

interface Held {
  messageId: number;
  message: { text?: string; reply_markup?: { inline_keyboard?: Button[][] } };
}
interface Button {
  text: string;
  callback_data: string;
}

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/** When the emulator first holds a bot message whose text contains `text`, and that message. */
function heldMessage(emulator: Emulator, text: string): Promise<{ at: bigint; held: Held }> {
  const server = emulator.server as unknown as {
    storage: { botMessages: Held[] };
    on(event: string, fn: () => void): void;
    off(event: string, fn: () => void): void;
  };
  const find = () => server.storage.botMessages.find((m) => m.message.text?.includes(text));
  return new Promise((resolve) => {
    const check = () => {
      const held = find();
      if (!held) return;
      server.off("AddedBotMessage", check);
      resolve({ at: process.hrtime.bigint(), held });
    };
    server.on("AddedBotMessage", check);
    check();
  });
}

/** The time of each answerCallbackQuery request as the emulator's HTTP server receives it. */
function ackTimes(emulator: Emulator): bigint[] {
  const times: bigint[] = [];
  const http = (emulator.server as unknown as { server: import("node:http").Server }).server;
  http.on("request", (req: IncomingMessage) => {
    if (req.url?.includes("/answerCallbackQuery")) times.push(process.hrtime.bigint());
  });
  return times;
}

function keyboard(emulator: Emulator, messageId: number): Button[] {
  const server = emulator.server as unknown as { storage: { botMessages: Held[] } };
  const held = server.storage.botMessages.find((m) => m.messageId === messageId);
  return held?.message.reply_markup?.inline_keyboard?.flat() ?? [];
}

async function startServe(box: string, apiRoot: string): Promise<ChildProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, "serve", "--box", box, "--json"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_OWNER_ID: String(OWNER),
      TELEGRAM_API_ROOT: apiRoot,
      QBRIDGE_WEB_PORT: String(port),
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr?.on("data", (d) => {
    log += d;
  });
  for (let i = 0; ; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`);
      return child;
    } catch {
      if (i > 600 || child.exitCode !== null) throw new Error(`serve did not start:\n${log}`);
      await sleep(100);
    }
  }
}

/** `qbridge …` as an agent starts it: the built CLI, without the settings that slow a start. */
function cli(args: string[], box: string): ChildProcess {
  return spawn(process.execPath, [CLI, ...args, "--box", box], {
    env: { ...nodeStartEnv(), QBRIDGE_BOX: box },
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** When a child first writes to stdout, and all it wrote once it exits. */
function firstOutput(child: ChildProcess): { at: Promise<bigint>; all: Promise<string> } {
  let text = "";
  const at = new Promise<bigint>((resolve) => {
    child.stdout?.once("data", () => resolve(process.hrtime.bigint()));
  });
  child.stdout?.on("data", (d) => {
    text += d;
  });
  const all = new Promise<string>((resolve) => child.once("exit", () => resolve(text)));
  return { at, all };
}

/** The rest of the floor's card: what a permission question's card says beside its prompt. */
const CARD = ["--memo", "The log folder is growing.", "--directive", "Rotate the logs."];
/** A child that ends with an error before the phone shows its question ends the bench. */
function failed(child: ChildProcess, what: string): Promise<never> {
  let err = "";
  child.stderr?.on("data", (d) => {
    err += d;
  });
  return new Promise((_resolve, reject) => {
    child.once("exit", (code) => {
      if (code !== 0) reject(new Error(`${what} exited ${code}: ${err}`));
    });
  });
}
const ms = (from: bigint, to: bigint) => Number(to - from) / 1e6;

export async function benchHook(): Promise<string[]> {
  const emulator = await startEmulator();
  const acks = ackTimes(emulator);
  const box = mkdtempSync(join(tmpdir(), "qbridge-bench-hook-"));
  execFileSync(process.execPath, [CLI, "init", "--box", box], { stdio: "ignore" });
  const serve = await startServe(box, emulator.apiRoot);
  const owner = emulator.server.getClient(TOKEN, { userId: OWNER, chatId: OWNER });
  const input = JSON.parse(readFileSync(FIXTURE, "utf8"));
  const figures = { hook: [] as number[], ask: [] as number[], decision: [] as number[] };
  const acked: number[] = [];
  try {
    // Round -1 warms serve's paths up (the first presentation, the first tap) and is not counted.
    for (let i = -1; i < RUNS; i++) {
      // The floor: a confirm question filed by `qbridge ask`, until it is on the phone.
      const round = i < 0 ? "warm-up" : String(i);
      const prompt = `Bench hook floor ${round}: may I rotate the logs?`;
      const shownAsk = heldMessage(emulator, prompt);
      const askStart = process.hrtime.bigint();
      const ask = cli(["ask", "--json", "--prompt", prompt, "--type", "confirm", ...CARD], box);
      const asked = firstOutput(ask);
      const askAt = (await Promise.race([shownAsk, failed(ask, "qbridge ask")])).at;
      const { id } = JSON.parse(await asked.all) as { id: string };
      execFileSync(process.execPath, [CLI, "withdraw", id, "--box", box], { stdio: "ignore" });
      await sleep(500);

      // The hook, with the fixture's command made unique to the round.
      const command = `rm -rf build-${round}`;
      const text = JSON.stringify({
        ...input,
        session_id: `bench-${round}`,
        tool_input: { ...input.tool_input, command },
      });
      const shownHook = heldMessage(emulator, command);
      const t0 = process.hrtime.bigint();
      const hook = cli(["hook", "permission"], box);
      const printed = firstOutput(hook);
      hook.stdin?.end(text);
      const hookAt = (await Promise.race([shownHook, failed(hook, "qbridge hook")])).at;
      const { held } = await shownHook;
      const allow = keyboard(emulator, held.messageId).find((b) => b.text.includes("Allow once"));
      if (!allow) throw new Error("the permission question has no Allow once button");
      const acksFirst = acks.length;
      await owner.sendCallback(
        owner.makeCallbackQuery(allow.callback_data, { message: { message_id: held.messageId } }),
      );
      let confirm: Button | undefined;
      for (let n = 0; !confirm && n < 500; n++) {
        await sleep(10);
        confirm = keyboard(emulator, held.messageId).find((b) => b.text.includes("Confirm"));
      }
      if (!confirm) throw new Error("the bot showed no Confirm button");
      // The first tap's own ack is in before the timed tap, so the next ack is the timed one's.
      for (let n = 0; acks.length === acksFirst && n < 500; n++) await sleep(5);
      const acksBefore = acks.length;
      const tap = process.hrtime.bigint();
      await owner.sendCallback(
        owner.makeCallbackQuery(confirm.callback_data, { message: { message_id: held.messageId } }),
      );
      const decidedAt = await printed.at;
      const output = await printed.all;
      if (!output.includes('"behavior":"allow"')) throw new Error(`the hook printed: ${output}`);
      for (let n = 0; acks.length === acksBefore && n < 500; n++) await sleep(5);
      const ackAt = acks[acksBefore];
      if (ackAt === undefined) throw new Error("the confirming tap was never acknowledged");
      if (i >= 0) {
        figures.ask.push(ms(askStart, askAt));
        figures.hook.push(ms(t0, hookAt));
        figures.decision.push(ms(tap, decidedAt));
        acked.push(ms(tap, ackAt));
      }
      await sleep(500);
    }
  } finally {
    serve.kill("SIGTERM");
    if (serve.exitCode === null) await new Promise((r) => serve.once("exit", r));
    await emulator.stop();
    rmSync(box, { recursive: true, force: true });
  }
  return [
    row("hook start→question on the phone", figures.hook, "qbridge ask→on the phone", figures.ask),
    row("tap→decision printed by the hook", figures.decision, "tap→ack (same taps)", acked),
  ];
}
