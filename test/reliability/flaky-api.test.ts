// Story: `qbridge serve` talks to a Bot API that fails a seeded share of its calls: 429 with
// retry_after, 5xx, requests held and then cut (timeouts), dropped connections, and answers
// lost after Telegram carried the call out (only for calls that are safe to repeat: edits,
// acknowledgements, getUpdates; a lost sendMessage answer cannot be told from a failed send
// by any client, since the Bot API has no idempotency key). On top of that, rate limiting:
// every send and edit answered 429 until grammY's auto-retry has given up on an edit and a send,
// and an answer committed with `qbridge answer` during it. Afterwards every question was shown
// exactly once, every closed message got its edit (the CLI answer too), every tap was
// acknowledged or its failure logged, and the service never exited.

import type { Update } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { cleanupBoxes, cliEnv, makeBox, runCli, selectCard, T0 } from "../support/box.ts";
import { type Emulator, eventually, OWNER, startEmulator, TOKEN } from "../support/telegram.ts";
import {
  type BotApiProxy,
  type Fault,
  type FaultPlan,
  type ProxyCall,
  startBotApiProxy,
} from "./bot-api-proxy.ts";
import { diskCards, diskJobs, printFigures } from "./invariants.ts";
import { serve } from "./serve-child.ts";
import { SOAK } from "./soak.ts";

const SEED = 0xf1a_c0de;
const QUESTIONS = 6;
/** Calls that may be repeated without a second effect: their answers may be lost. */
const REPEATABLE = [
  "editMessageText",
  "editMessageReplyMarkup",
  "answerCallbackQuery",
  "getUpdates",
];
const KINDS: Fault[] = ["429", "5xx", "timeout", "drop", "lost-response"];

function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The seeded faults of the flaky stretches. Polls draw from a stream of their own, so how often
 * the service polls never changes which other calls fail. The other calls meet the kinds in
 * turn: `npm test` spends one turn, every kind once (the outage adds the many 429s); soak spends
 * more. The next attempt of a failed call goes through: each fault costs one retry wait, never a
 * stack of them.
 */
function flakyPlan(): FaultPlan {
  const polls = seeded(SEED);
  const calls = seeded(SEED + 1);
  const turns: Fault[] = ["lost-response", "timeout", "drop", "5xx", "429"];
  let turn = 0;
  let pollBudget = SOAK > 1 ? 24 * SOAK : 2;
  let failed: string | undefined;
  return (method, call) => {
    if (method === "getUpdates") {
      if (pollBudget <= 0 || polls() >= 0.05) return undefined;
      pollBudget--;
      return KINDS[Math.floor(polls() * KINDS.length)] as Fault;
    }
    const attempt = `${method} ${JSON.stringify(call.payload)}`;
    if (turn >= turns.length * SOAK || attempt === failed || calls() >= 0.35) return undefined;
    const kind = turns[turn % turns.length] as Fault;
    // A lost answer only where a repeat has no second effect; the turn waits for such a call.
    if (kind === "lost-response" && !REPEATABLE.includes(method)) return undefined;
    turn++;
    failed = attempt;
    return kind;
  };
}

const figures = { calls: 0, injected: 0, "429": 0, "5xx": 0, timeout: 0, drop: 0, lostResponse: 0 };

let emulator: Emulator;
let proxy: BotApiProxy;
beforeAll(async () => {
  emulator = await startEmulator();
  proxy = await startBotApiProxy({ emulatorRoot: emulator.apiRoot, holdMs: 300 });
});
afterAll(async () => {
  Object.assign(figures, {
    calls: proxy.calls.length,
    injected: Object.values(proxy.faults).reduce((a, b) => a + b, 0),
    "429": proxy.faults["429"],
    "5xx": proxy.faults["5xx"],
    timeout: proxy.faults.timeout,
    drop: proxy.faults.drop,
    lostResponse: proxy.faults["lost-response"],
  });
  printFigures("flaky Bot API", figures);
  await proxy.close();
  await emulator.stop();
  cleanupBoxes();
});

const chat = { id: OWNER, type: "private" as const, first_name: "Owner" };
const from = { id: OWNER, is_bot: false, first_name: "Owner" };

interface Button {
  text: string;
  callback_data?: string;
}

/** The sends that reached Telegram (the emulator carried them out), with buttons. */
const shown = (prompt: string) =>
  proxy.calls.filter(
    (c) =>
      c.method === "sendMessage" &&
      c.result !== undefined &&
      c.payload.reply_markup !== undefined &&
      String(c.payload.text).includes(prompt),
  );

const messageIdOf = (call: ProxyCall) => (call.result as { message_id: number }).message_id;

/** Edits of a message that reached Telegram. */
const editsOf = (messageId: number) =>
  proxy.calls.filter(
    (c) =>
      c.method === "editMessageText" &&
      c.result !== undefined &&
      c.payload.message_id === messageId,
  );

describe("a flaky Bot API", () => {
  it("shows every question once, lands every edit, reflects a CLI answer made during an outage, and never exits", async () => {
    const box = await makeBox();
    const ids: string[] = [];
    const prompts: string[] = [];
    for (let i = 0; i < QUESTIONS; i++) {
      const prompt = `F${i}: where does invoice batch ${i} go?`;
      const { id } = await askQuestion(box, {
        ...selectCard({ prompt }),
        "asked-at": `2026-07-09T${10 + i}:00:00Z`,
      });
      ids.push(id);
      prompts.push(prompt);
    }
    const flaky = flakyPlan();
    proxy.setFaults(flaky);

    const service = serve(
      {
        QBRIDGE_BOX: box.dir,
        QBRIDGE_TIME: T0,
        QBRIDGE_WEB_PORT: "0",
        QBRIDGE_LOG_LEVEL: "warn",
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_OWNER_ID: String(OWNER),
        TELEGRAM_API_ROOT: proxy.apiRoot,
      },
      box.dir,
    );
    const alive = () => {
      if (service.exited())
        throw new Error(`serve exited (${service.exited()}): ${service.stderr()}`);
    };
    const presented = (i: number) =>
      eventually(
        () => {
          alive();
          const call = shown(prompts[i] as string)[0];
          return call ? { messageId: messageIdOf(call), call } : undefined;
        },
        60_000,
        `question ${i} to be presented`,
      );
    let callbacks = 0;
    const tapIds: string[] = [];
    const tap = (message: { messageId: number; call: ProxyCall }, prefix: string) => {
      const markup = message.call.payload.reply_markup as { inline_keyboard: Button[][] };
      const button = markup.inline_keyboard.flat().find((b) => b.text.startsWith(prefix));
      const id = `flaky-cb-${++callbacks}`;
      tapIds.push(id);
      proxy.inject({
        callback_query: {
          id,
          from,
          chat_instance: "ci",
          data: button?.callback_data as string,
          message: { message_id: message.messageId, date: 0, chat, text: "" },
        },
      } as Omit<Update, "update_id">);
    };

    // Taps while a share of the calls fail.
    const first = await presented(0);
    tap(first, "a)");
    const second = await presented(1);
    tap(second, "b)");
    const third = await presented(2);

    // Rate limited long enough for auto-retry to give up on sends and edits; meanwhile the
    // third question is answered from the command line. Afterwards the API is flaky again.
    let outage = true;
    const outageFrom = proxy.calls.length;
    proxy.setFaults((method, call) => {
      if (!outage) return flaky(method, call);
      return method !== "getUpdates" && method !== "answerCallbackQuery" ? "429" : undefined;
    });
    const answered = await runCli(["answer", ids[2] as string, "Taxes"], { env: cliEnv(box.dir) });
    expect(answered.code).toBe(0);
    // Auto-retry makes four attempts of a call before it gives up: wait until it gave up on an
    // edit (the CLI answer's) and on a send (the next question's).
    const limited = (method: string) =>
      proxy.calls.filter((c) => c.seq > outageFrom && c.method === method && c.fault === "429")
        .length;
    await eventually(
      () => {
        alive();
        return (limited("editMessageText") >= 4 && limited("sendMessage") >= 4) || undefined;
      },
      60_000,
      "auto-retry to give up on an edit and on a send during the outage",
    );
    outage = false;

    // The CLI answer reaches the chat once the API is back, and the next question appears.
    await eventually(
      () =>
        editsOf(third.messageId).some((c) => String(c.payload.text).includes("via cli")) ||
        undefined,
      30_000,
      "the CLI answer to be shown in place of the third question",
    );
    const fourth = await presented(3);
    tap(fourth, "a)");
    const fifth = await presented(4);
    tap(fifth, "b)");
    const sixth = await presented(5);
    tap(sixth, "a)");

    await eventually(
      () => {
        alive();
        return diskCards(box.dir).every((c) => c.card?.status === "answered") || undefined;
      },
      60_000,
      "every question to be answered",
    );
    const shownMessages = [first, second, third, fourth, fifth, sixth];
    await eventually(
      () => shownMessages.every((m) => editsOf(m.messageId).length > 0) || undefined,
      60_000,
      "every closed question's message to be edited",
    );

    // Each question reached the chat exactly once; each answer landed once with its job.
    for (const prompt of prompts) expect(shown(prompt), prompt).toHaveLength(1);
    expect(diskJobs(box.dir)).toEqual([...ids].sort());
    const cards = new Map(diskCards(box.dir).map((c) => [c.id, c.card]));
    expect(cards.get(ids[2] as string)?.["answered-via"]).toBe("cli");
    for (const [i, id] of ids.entries()) {
      if (i !== 2) expect(cards.get(id)?.["answered-via"], prompts[i]).toBe("telegram");
    }
    // Every tap was acknowledged: the acknowledgement reached Telegram.
    for (const id of tapIds) {
      expect(
        proxy.calls.some(
          (c) =>
            c.method === "answerCallbackQuery" &&
            c.payload.callback_query_id === id &&
            c.result !== undefined,
        ),
        id,
      ).toBe(true);
    }
    expect(service.exited()).toBeUndefined();
    await eventually(
      () => service.stderr().includes("qbridge serve is running") || undefined,
      20_000,
      "serve to finish starting",
    );
    expect(await service.stop("SIGTERM")).toBe("0");
  }, 180_000);
});
