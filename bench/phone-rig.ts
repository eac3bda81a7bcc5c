// The phone rig shared by phone.ts and hook.ts: a box, a real `qbridge serve` with Telegram on
// the telegram-test-api emulator on loopback, reached through a front that holds getUpdates as
// Telegram does (test/support/long-poll.ts), so a tap reaches the bot as it would on Telegram,
// not at the bot's next short poll; and what a bench watches from the phone's side:
// when the emulator first holds a bot message, when Bot API calls arrive, and the boxholder's
// taps. Every wait is bounded and ends the bench with what it waited for.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import type { IncomingMessage, Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { STATE_DIR } from "../src/box/paths.ts";
import { reachableSurfaces } from "../src/slot/presence.ts";
import { OWNER, startEmulator, TOKEN } from "../test/support/telegram.ts";
import { nodeStartEnv } from "./fixture.ts";

const CLI = join(import.meta.dirname, "../bin/qbridge.cjs");
/** How long any one wait of a bench round may take before the bench fails: long enough for a
 * heavily loaded 2-core machine, where each node start alone can take seconds. */
const WAIT_MS = 180_000;

interface Held {
  messageId: number;
  message: { text?: string; reply_markup?: { inline_keyboard?: Button[][] } };
}
interface Button {
  text: string;
  callback_data: string;
}
interface EmulatorInside {
  storage: { botMessages: Held[] };
  server: Server;
  on(event: string, fn: () => void): void;
  off(event: string, fn: () => void): void;
}

export const now = () => process.hrtime.bigint();
export const ms = (from: bigint, to: bigint) => Number(to - from) / 1e6;

export interface PhoneRig {
  /** `qbridge …` as an agent starts it: the built CLI on the rig's box, without the settings that slow a start. */
  cli(args: string[]): ChildProcess;
  /**
   * Starts `qbridge serve` as a user does; resolves once it has made its first getUpdates and
   * its presence record says Telegram delivers (before that, a hook files nothing).
   */
  startServe(): Promise<void>;
  /** When the emulator first holds a bot message containing `text` (waiting for it), and that message. */
  held(text: string): Promise<{ at: bigint; messageId: number }>;
  /** The buttons of a held message as they are now. */
  buttons(messageId: number): Button[];
  /** Taps the first button whose text contains `label`, as the boxholder; returns when it was sent. */
  tap(messageId: number, label: string): Promise<bigint>;
  /** Arrival times of every request for a Bot API method so far (the array grows as they come). */
  arrivals(method: string): bigint[];
  /** Waits for `check` to return a value, polling every few ms. */
  until<T>(check: () => T | undefined, what: string): Promise<T>;
  stop(): Promise<void>;
}

export async function phoneRig(name: string): Promise<PhoneRig> {
  const emulator = await startEmulator({ holdPolls: true });
  const inside = emulator.server as unknown as EmulatorInside;
  const box = mkdtempSync(join(tmpdir(), `qbridge-bench-${name}-`));
  const env = { ...nodeStartEnv(), QBRIDGE_BOX: box, QBRIDGE_LOG_LEVEL: "warn" };
  execFileSync(process.execPath, [CLI, "init"], { env, stdio: "ignore" });
  const seen = new Map<string, bigint[]>();
  inside.server.on("request", (req: IncomingMessage) => {
    const method = (req.url ?? "").split("/").at(-1)?.split("?")[0] ?? "";
    const times = seen.get(method) ?? [];
    times.push(now());
    seen.set(method, times);
  });
  const arrivals = (method: string) => {
    if (!seen.has(method)) seen.set(method, []);
    return seen.get(method) as bigint[];
  };
  const owner = emulator.server.getClient(TOKEN, { userId: OWNER, chatId: OWNER });
  let serve: ChildProcess | undefined;

  const until = async <T>(check: () => T | undefined, what: string): Promise<T> => {
    const end = Date.now() + WAIT_MS;
    for (;;) {
      const value = check();
      if (value !== undefined) return value;
      if (Date.now() > end) throw new Error(`bench: timed out waiting for ${what}`);
      await sleep(2);
    }
  };

  const buttons = (messageId: number) =>
    inside.storage.botMessages
      .find((m) => m.messageId === messageId)
      ?.message.reply_markup?.inline_keyboard?.flat() ?? [];

  return {
    cli: (args) => spawn(process.execPath, [CLI, ...args], { env, stdio: "pipe" }),
    async startServe() {
      const polls = arrivals("getUpdates").length;
      let log = "";
      serve = spawn(process.execPath, [CLI, "serve"], {
        env: {
          ...env,
          TELEGRAM_BOT_TOKEN: TOKEN,
          TELEGRAM_OWNER_ID: String(OWNER),
          TELEGRAM_API_ROOT: emulator.apiRoot,
          QBRIDGE_WEB_PORT: "0", // any free port: nothing here reads the page
        },
        stdio: ["ignore", "ignore", "pipe"],
      });
      serve.stderr?.on("data", (d) => {
        log += d;
      });
      const child = serve;
      await until(() => {
        if (child.exitCode !== null) throw new Error(`bench: serve exited:\n${log}`);
        return arrivals("getUpdates").length > polls ? true : undefined;
      }, "serve's first getUpdates");
      await until(
        () =>
          reachableSurfaces(join(box, STATE_DIR, "locks")).includes("telegram") ? true : undefined,
        "serve's presence record naming telegram",
      );
    },
    held(text) {
      const find = () => inside.storage.botMessages.find((m) => m.message.text?.includes(text));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          inside.off("AddedBotMessage", check);
          reject(new Error(`bench: the phone never showed "${text}"`));
        }, WAIT_MS);
        function check() {
          const found = find();
          if (!found) return;
          clearTimeout(timer);
          inside.off("AddedBotMessage", check);
          resolve({ at: now(), messageId: found.messageId });
        }
        inside.on("AddedBotMessage", check);
        check();
      });
    },
    buttons,
    async tap(messageId, label) {
      const button = await until(
        () => buttons(messageId).find((b) => b.text.includes(label)),
        `a "${label}" button`,
      );
      const at = now();
      await owner.sendCallback(
        owner.makeCallbackQuery(button.callback_data, { message: { message_id: messageId } }),
      );
      return at;
    },
    arrivals,
    until,
    async stop() {
      serve?.kill("SIGTERM");
      if (serve && serve.exitCode === null) await new Promise((r) => serve?.once("exit", r));
      await emulator.stop();
      rmSync(box, { recursive: true, force: true });
    },
  };
}

/** A child that ends with an error before what is awaited happens ends the bench. */
export function failed(child: ChildProcess, what: string): Promise<never> {
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

/** When a child exits. */
export function exited(child: ChildProcess): Promise<bigint> {
  return new Promise((resolve) => child.once("exit", () => resolve(now())));
}
