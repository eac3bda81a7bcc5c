// What the Telegram tests stand on: the telegram-test-api emulator on 127.0.0.1 (one per test
// file, on a free port), a recorder that keeps every Bot API call the bot makes and answers the
// few methods the emulator lacks, and people who talk to the bot: the boxholder, a stranger, a
// group. `pump` hands the updates the emulator holds to the bot one by one and returns when they
// are handled, so each step of a story is finished before the next is checked.

import type { AddressInfo } from "node:net";
import type { Transformer } from "grammy";
import type { InlineKeyboardButton, Update } from "grammy/types";
import { TelegramServer } from "telegram-test-api/lib/telegramServer.js";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createBot, type TelegramBridge } from "../../bridges/telegram/bot.ts";
import { telegram } from "../../bridges/telegram/bridge.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import type { Attention } from "../../src/slot/attention/attention.ts";
import { declared } from "../../src/slot/bridge.ts";
import { type Door, openDoor } from "../../src/slot/door.ts";
import { createSlot, type Slot } from "../../src/slot/slot.ts";
import { cleanupBoxes, makeBox, type TestBox } from "./box.ts";
import { qbridge } from "./child.ts";
import { holdPolls } from "./long-poll.ts";

export { eventually } from "./child.ts";

export const TOKEN = "123456789:TESTTOKENabcdefghijklmnopqrstuvwxyz";
export const OWNER = 1001;
export const STRANGER = 2002;
export const GROUP = -3003;

/** The Telegram bridge's door on `slot`, as the service opens it; `ownerId`: TELEGRAM_OWNER_ID. */
export function telegramDoor(slot: Slot, ownerId: string | undefined): Door {
  return openDoor(slot, declared(telegram.surface, telegram.proves, ownerId));
}

export interface Emulator {
  server: TelegramServer;
  apiRoot: string;
  stop(): Promise<void>;
}

/**
 * The emulator on a free loopback port. `holdPolls`: the bot reaches it through a front that
 * holds an empty getUpdates as Telegram does (long-poll.ts). The tests keep the emulator's own
 * answer at once: their steps rely on it.
 */
export async function startEmulator(options: { holdPolls?: boolean } = {}): Promise<Emulator> {
  const server = new TelegramServer({ host: "127.0.0.1", storeTimeout: 600 });
  // The emulator reads a port of 0 as its default 9000; set on its config, the system picks one
  // as it listens, so no test beside this one can take it first.
  server.config.port = 0;
  await server.start();
  const http = (server as unknown as { server: import("node:http").Server }).server;
  server.config.port = (http.address() as AddressInfo).port;
  server.config.apiURL = `http://127.0.0.1:${server.config.port}`;
  // grammY keeps one keep-alive agent per API root for the whole process, so a bot made later in
  // a file reuses a socket an earlier bot left idle. With Node's 5 s default the emulator could
  // close that socket just as the new bot's getMe went out on it (a reset under load). Idle
  // sockets stay open instead; stop() still closes them (http-shutdown).
  http.keepAliveTimeout = 0;
  const front = options.holdPolls ? await holdPolls(server, server.config.apiURL) : undefined;
  return {
    server,
    apiRoot: front?.apiRoot ?? server.config.apiURL,
    stop: async () => {
      await front?.close();
      await server.stop();
    },
  };
}

export interface Call {
  method: string;
  payload: Record<string, unknown>;
  /** What the API answered (the sent message for sendMessage). */
  result?: unknown;
}

/** Methods the emulator does not know, answered here as Telegram would. */
const MISSING: Record<string, unknown> = {
  setMyCommands: true,
  deleteMyCommands: true,
  getMyCommands: [],
  setChatMenuButton: true,
  sendChatAction: true,
};

export function recorder(options: { fail?: string[] } = {}): {
  calls: Call[];
  transformer: Transformer;
} {
  const calls: Call[] = [];
  const transformer: Transformer = async (prev, method, payload, signal) => {
    if (method === "getUpdates") return prev(method, payload, signal);
    const call: Call = { method, payload: { ...(payload as object) } };
    calls.push(call);
    if (options.fail?.includes(method)) {
      return { ok: false, error_code: 500, description: `Internal Server Error (test: ${method})` };
    }
    if (method in MISSING) return { ok: true, result: MISSING[method] } as never;
    const response = await prev(method, payload, signal);
    if (response.ok) call.result = response.result;
    return response;
  };
  return { calls, transformer };
}

export interface Person {
  userId: number;
  chatId: number;
  /** Sends a text message (optionally as a reply to a message). */
  say(text: string, options?: { replyTo?: number }): Promise<void>;
  /** Sends a command such as "/waiting" or "/start CODE". */
  command(text: string): Promise<void>;
  /** Taps a button (its callback data) on a message. */
  tap(data: string, messageId: number): Promise<void>;
}

function person(
  emulator: Emulator,
  userId: number,
  chatId: number,
  type: "private" | "group",
): Person {
  const client = emulator.server.getClient(TOKEN, {
    userId,
    chatId,
    type,
    firstName: `U${userId}`,
  });
  return {
    userId,
    chatId,
    async say(text, options = {}) {
      const extra = options.replyTo
        ? { reply_to_message: { message_id: options.replyTo, chat: { id: chatId, type } } }
        : {};
      await client.sendMessage(client.makeMessage(text, extra));
    },
    async command(text) {
      await client.sendCommand(client.makeCommand(text));
    },
    async tap(data, messageId) {
      await client.sendCallback(
        client.makeCallbackQuery(data, { message: { message_id: messageId } }),
      );
    },
  };
}

export interface Harness extends TestBox {
  slot: Slot;
  bridge: TelegramBridge;
  calls: Call[];
  owner: Person;
  stranger: Person;
  group: Person;
  /** Hands every update the emulator holds to the bot; returns the updates handled. */
  pump(): Promise<Update[]>;
  /** Hands one update to the bot as it is (for replays of the same callback id). */
  deliver(update: Update): Promise<void>;
  ask(card: Record<string, unknown>): Promise<string>;
  /** The calls of one method, oldest first. */
  sent(method: string): Call[];
  /** The last sendMessage: its text, message id (from the emulator) and buttons. */
  lastMessage(): Promise<BotMessage>;
}

export interface BotMessage {
  messageId: number;
  chatId: number;
  text: string;
  buttons: InlineKeyboardButton[];
}

/** A box, a slot and the real bot wired to the emulator; the boxholder is OWNER unless `paired`. */
export async function openHarness(
  emulator: Emulator,
  options: {
    ownerId?: string | undefined;
    noOwner?: boolean;
    /** Signed web links on https://q.example.org, or on this QBRIDGE_PUBLIC_URL. */
    link?: boolean | string;
    /** Bot API faults a story makes, before the recorder (as botBehind's `cut`). */
    cut?: Transformer;
    /** Quiet hours and time zone for the slot (default: none, UTC). */
    attention?: Attention;
  } = {},
): Promise<Harness> {
  const box = await makeBox();
  const slot = createSlot({ core: box, attention: options.attention });
  const { calls, transformer } = recorder();
  const publicUrl =
    typeof options.link === "string" ? options.link : options.link && "https://q.example.org";
  const bridge = createBot({
    token: TOKEN,
    apiRoot: emulator.apiRoot,
    door: telegramDoor(slot, options.noOwner ? undefined : (options.ownerId ?? String(OWNER))),
    logger: { info() {}, warn() {}, error() {} },
    link: publicUrl ? (id) => `${publicUrl}/q/${id}?s=signed` : undefined,
    questionsLink: publicUrl ? () => `${publicUrl}/questions?s=signed` : undefined,
    transformers: options.cut ? [options.cut, transformer] : [transformer],
  });
  if (!(await bridge.init())) {
    throw new Error(
      `the bot could not start on the emulator: ${bridge.health().reason ?? "no reason given"}`,
    );
  }
  const updatesUrl = `${emulator.apiRoot}/bot${TOKEN}/getUpdates`;
  const deliver = async (update: Update) => bridge.handleUpdate(update);
  const harness: Harness = {
    ...box,
    slot,
    bridge,
    calls,
    owner: person(emulator, OWNER, OWNER, "private"),
    stranger: person(emulator, STRANGER, STRANGER, "private"),
    group: person(emulator, OWNER, GROUP, "group"),
    async pump() {
      const response = await fetch(updatesUrl, { method: "POST" });
      const { result } = (await response.json()) as { result: Update[] };
      for (const update of result) await deliver(update);
      return result;
    },
    deliver,
    async ask(card) {
      const { id } = await askQuestion(box, card);
      return id;
    },
    sent(method) {
      return calls.filter((c) => c.method === method);
    },
    async lastMessage() {
      const last = calls.filter((c) => c.method === "sendMessage" && c.result).pop();
      if (!last) throw new Error("the bot sent no message");
      return toBotMessage(last);
    },
  };
  return harness;
}

export function toBotMessage(call: Call): BotMessage {
  const result = call.result as { message_id: number; chat: { id: number } };
  const markup = call.payload.reply_markup as
    | { inline_keyboard?: InlineKeyboardButton[][] }
    | undefined;
  return {
    messageId: result.message_id,
    chatId: result.chat.id,
    text: call.payload.text as string,
    buttons: (markup?.inline_keyboard ?? []).flat(),
  };
}

/** The callback data of the button whose text starts with `prefix`. */
export function buttonData(message: BotMessage, prefix: string): string {
  const button = message.buttons.find((b) => b.text.startsWith(prefix));
  if (!button || !("callback_data" in button)) {
    throw new Error(`no button "${prefix}" in ${message.buttons.map((b) => b.text).join(", ")}`);
  }
  return button.callback_data as string;
}

export interface ServeProcess {
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs `qbridge serve` as a real child process with exactly this environment (plus PATH). */
export function spawnServe(
  args: string[],
  options: { env: Record<string, string>; cwd: string },
): ServeProcess {
  const child = qbridge(["serve", ...args], options);
  return { stdout: child.stdout, stderr: child.stderr, stop: (signal) => child.kill(signal) };
}

/**
 * One emulator for a whole test file: started before its tests and stopped after them, with the
 * temporary boxes removed after each test. Call at the top of the file; read it inside tests.
 */
/** One log line a test keeps: its level and its message. */
export interface LogLine {
  level: string;
  msg: string;
}

/**
 * A box, its slot and a bot on the emulator whose Bot API calls pass `cut` first (a fault a
 * story makes: a blocked chat, a network that is down), every log line kept in `logs`.
 */
export async function botBehind(
  apiRoot: string,
  cut: Transformer,
  slotOptions: { wallClock?: () => number } = {},
) {
  const box = await makeBox();
  const logs: LogLine[] = [];
  const log = (level: string) => (_obj: object, msg?: string) => {
    logs.push({ level, msg: msg ?? "" });
  };
  const logger = { info: log("info"), warn: log("warn"), error: log("error") };
  const slot = createSlot({ core: box, logger, ...slotOptions });
  const { calls, transformer } = recorder();
  const bridge = createBot({
    token: TOKEN,
    apiRoot,
    door: telegramDoor(slot, String(OWNER)),
    logger,
    transformers: [cut, transformer],
  });
  if (!(await bridge.init())) throw new Error("the bot did not start on the emulator");
  const warnings = () => logs.filter((l) => l.level === "warn" || l.level === "error");
  return { box, slot, bridge, calls, logs, warnings };
}

export function useEmulator(): () => Emulator {
  let emulator: Emulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator();
  });
  afterAll(async () => {
    await emulator?.stop();
  });
  afterEach(cleanupBoxes);
  return () => {
    if (!emulator) throw new Error("the emulator is not running: call useEmulator() at file level");
    return emulator;
  };
}

/** Files a question and lets the slot present it; returns its id and the message shown. */
export async function presentQuestion(
  h: Harness,
  card: Record<string, unknown>,
): Promise<{ id: string; message: BotMessage }> {
  const id = await h.ask(card);
  await h.slot.reconcile();
  return { id, message: await h.lastMessage() };
}
