// Story: `qbridge serve` runs as a child process against a loopback Bot API that keeps
// Telegram's offset rule (an update is delivered again until a later getUpdates confirms it).
// The boxholder taps and types answers; at seeded points the service is SIGKILLed (while it
// waits for the ack, the closing edit or the next question's send; at a random moment; inside
// the commit), restarted, and handed the same updates again, plus some it had confirmed (as a
// webhook retry would). Afterwards: every answer landed once with its one job, no question was
// presented twice except where the kill fell between Telegram taking the message and the
// ledger recording it (and then the old copy's buttons are dead), and every tap was answered.

import Database from "better-sqlite3";
import type { Update } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import { cleanupBoxes, confirmCard, makeBox, selectCard, T0, textCard } from "../support/box.ts";
import { type Emulator, eventually, OWNER, startEmulator, TOKEN } from "../support/telegram.ts";
import { type BotApiProxy, type ProxyCall, startBotApiProxy } from "./bot-api-proxy.ts";
import {
  ageLocks,
  diskCards,
  diskJobs,
  gitLocks,
  history,
  printFigures,
  waitUntilLocksStale,
} from "./invariants.ts";
import { type Service, serve } from "./serve-child.ts";

const SEED = 0x5eed_0005;
const QUESTIONS = 10;
const STALE_MS = 5000;
const COUNTED = ["answerCallbackQuery", "sendMessage", "editMessageText", "editMessageReplyMarkup"];

type KillPlan =
  | { kind: "api"; nth: number; forward: boolean; what: string }
  | { kind: "delay"; ms: number; what: string }
  | { kind: "crash"; at: string; what: string };

/** Small seeded generator (mulberry32): the same seed gives the same kill points. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    shuffle<T>(items: T[]): T[] {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j] as T, out[i] as T];
      }
      return out;
    },
  };
}

interface Planned {
  id: string;
  prompt: string;
  kind: "select" | "confirm" | "text";
  /** How the boxholder answers: a tap on the button starting with `button`, or typed `text`. */
  action: { tap: string } | { type: string };
  /** What the card must hold afterwards. */
  expect: { selected?: string; text: string };
}

const random = seeded(SEED);
const figures = {
  rounds: 0,
  kills: 0,
  updatesInjected: 0,
  updatesRedelivered: 0,
  sendsLostInCrashWindow: 0,
  duplicatesFound: 0,
};

let emulator: Emulator;
let proxy: BotApiProxy;
beforeAll(async () => {
  emulator = await startEmulator();
  proxy = await startBotApiProxy({ emulatorRoot: emulator.apiRoot, holdMs: 300 });
});
afterAll(async () => {
  printFigures("restart and redelivery", figures);
  await proxy.close();
  await emulator.stop();
  cleanupBoxes();
});

const chat = { id: OWNER, type: "private" as const, first_name: "Owner" };
const from = { id: OWNER, is_bot: false, first_name: "Owner" };

function presentationOf(call: ProxyCall): { messageId: number; text: string; buttons: Button[] } {
  const markup = call.payload.reply_markup as { inline_keyboard?: Button[][] } | undefined;
  return {
    messageId: (call.result as { message_id: number }).message_id,
    text: String(call.payload.text),
    buttons: (markup?.inline_keyboard ?? []).flat(),
  };
}
interface Button {
  text: string;
  callback_data?: string;
}

/** Presentations Telegram showed: a sendMessage with buttons or a force-reply that the emulator took. */
const presentations = () =>
  proxy.calls.filter(
    (c) => c.method === "sendMessage" && c.result !== undefined && c.payload.reply_markup,
  );

function tapUpdate(message: { messageId: number; text: string }, data: string, n: number) {
  return {
    callback_query: {
      id: `cb-${n}`,
      from,
      chat_instance: "ci-owner",
      data,
      message: { message_id: message.messageId, date: 0, chat, text: message.text },
    },
  } as Omit<Update, "update_id">;
}

function typedUpdate(text: string, replyTo: number | undefined) {
  // A chat's message ids are one sequence for both sides: take the emulator's next one.
  const message_id = (emulator.server as unknown as { messageId: number }).messageId++;
  return {
    message: {
      message_id,
      date: 0,
      chat,
      from,
      text,
      ...(replyTo ? { reply_to_message: { message_id: replyTo, date: 0, chat } } : {}),
    },
  } as Omit<Update, "update_id">;
}

function plan(i: number): Omit<Planned, "id"> {
  const prompt = `Q${i}: which folder takes batch ${i}?`;
  const roll = random.int(6);
  if (i % 5 === 4) {
    return {
      prompt,
      kind: "text",
      action: { type: `Batch ${i} goes to archive/${i}` },
      expect: { text: `Batch ${i} goes to archive/${i}` },
    };
  }
  if (i % 5 === 3) {
    return roll < 3
      ? { prompt, kind: "confirm", action: { tap: "No" }, expect: { selected: "no", text: "No" } }
      : {
          prompt,
          kind: "confirm",
          action: { type: "yes" },
          expect: { selected: "yes", text: "Yes" },
        };
  }
  if (roll < 2)
    return {
      prompt,
      kind: "select",
      action: { tap: "a)" },
      expect: { selected: "finance", text: "Finance" },
    };
  if (roll < 4)
    return {
      prompt,
      kind: "select",
      action: { tap: "b)" },
      expect: { selected: "taxes", text: "Taxes" },
    };
  return {
    prompt,
    kind: "select",
    action: { type: "Taxes" },
    expect: { selected: "taxes", text: "Taxes" },
  };
}

/**
 * Lets the killed service's locks go stale before the restart. A git the kill orphaned finishes
 * on its own and holds a git lock until then; once none is held, the dead service's locks are
 * aged as if the restart came long after the kill, and it takes them over at once. After a kill
 * at a random moment a git may not hold its lock yet, so the test waits out the stale time.
 */
async function settle(dir: string, kill: KillPlan): Promise<void> {
  if (kill.kind === "delay") return waitUntilLocksStale(dir, STALE_MS);
  await eventually(() => gitLocks(dir).length === 0 || undefined, 30_000, "git to end");
  ageLocks(dir);
}

describe("the service killed while taps and replies arrive, restarted, the updates delivered again", () => {
  it("applies every answer once with one job, presents nothing twice, and acknowledges every tap", async () => {
    const box = await makeBox();
    const planned: Planned[] = [];
    for (let i = 0; i < QUESTIONS; i++) {
      const p = plan(i);
      const card =
        p.kind === "select"
          ? selectCard({ prompt: p.prompt })
          : p.kind === "confirm"
            ? confirmCard({ prompt: p.prompt })
            : textCard({ prompt: p.prompt });
      const asked = `2026-07-09T${10 + i}:00:00Z`;
      const { id } = await askQuestion(box, { ...card, "asked-at": asked });
      planned.push({ id, ...p });
    }
    const env = {
      QBRIDGE_BOX: box.dir,
      QBRIDGE_TIME: T0,
      QBRIDGE_WEB_PORT: "0",
      QBRIDGE_LOCK_STALE_MS: String(STALE_MS),
      QBRIDGE_LOG_LEVEL: "warn",
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_OWNER_ID: String(OWNER),
      TELEGRAM_API_ROOT: proxy.apiRoot,
    };
    const kills: KillPlan[] = random.shuffle([
      { kind: "api", nth: 1, forward: false, what: "ack or reply never reached Telegram" },
      { kind: "api", nth: 1, forward: true, what: "ack or reply reached Telegram, unconfirmed" },
      { kind: "api", nth: 2, forward: true, what: "during the closing edit" },
      { kind: "api", nth: 3, forward: true, what: "next question sent, not yet recorded" },
      { kind: "api", nth: 3, forward: false, what: "next question's send never arrived" },
      { kind: "delay", ms: 20 + random.int(300), what: "a random moment" },
      { kind: "crash", at: "in-commit", what: "inside the commit" },
      { kind: "crash", at: "after-commit", what: "after the commit, before the record" },
    ]);

    const acted = new Set<string>();
    const tapIds: string[] = [];
    const typedIds: number[] = [];
    const handled: Update[] = [];
    let callbacks = 0;

    // The ledger, read beside the service: which message holds the slot, and which messages
    // it ever recorded. A copy Telegram showed that the ledger never recorded was cut off by a
    // kill between the send and the record (its buttons are dead by design); the boxholder
    // acts on the message that holds the slot, as the chat shows it last.
    const ledger = new Database(box.box.paths.ledgerPath, { readonly: true });
    const openMessage = () =>
      (
        ledger.prepare("SELECT message_id FROM presentations WHERE state = 'presented'").get() as
          | { message_id: string | null }
          | undefined
      )?.message_id ?? undefined;
    const recorded = () =>
      new Set(
        (
          ledger
            .prepare("SELECT message_id FROM presentations WHERE message_id IS NOT NULL")
            .all() as { message_id: string }[]
        ).map((r) => r.message_id),
      );
    const cutOff = (call: ProxyCall, seen: Set<string>) =>
      !seen.has(String(presentationOf(call).messageId));

    /** The presentation that holds the slot, once it is of a question not acted on yet. */
    const nextPresentation = (service: Service) =>
      eventually(
        () => {
          if (service.exited()) throw new Error(`serve exited: ${service.stderr()}`);
          const open = openMessage();
          const call = presentations().find(
            (c) => open !== undefined && String(presentationOf(c).messageId) === open,
          );
          if (!call) return undefined;
          const q = planned.find((p) => String(call.payload.text).includes(p.prompt));
          return q && !acted.has(q.id) ? { q, message: presentationOf(call) } : undefined;
        },
        30_000,
        "the next question to be presented",
      ).catch((error: Error) => {
        // Say what the service and the ledger were doing, so a failure here can be diagnosed.
        const rows = ledger
          .prepare("SELECT question_id, state, message_id FROM presentations ORDER BY seq")
          .all();
        const cards = diskCards(box.dir).map((c) => `${c.id}:${c.card?.status}`);
        throw new Error(
          `${error.message}; in round ${figures.rounds} (${kills[figures.rounds - 1]?.what ?? "no kill"}); acted ${[...acted].join(",")}; cards ${cards.join(" ")}; presentations ${JSON.stringify(rows)}; stderr ${service.stderr().slice(-1500)}`,
        );
      });

    function act(q: Planned, message: { messageId: number; text: string; buttons: Button[] }) {
      acted.add(q.id);
      let id: number;
      if ("tap" in q.action) {
        const prefix = q.action.tap;
        const button = message.buttons.find((b) => b.text.startsWith(prefix));
        if (!button?.callback_data) throw new Error(`no button ${prefix} on ${message.text}`);
        const update = tapUpdate(message, button.callback_data, ++callbacks);
        tapIds.push(update.callback_query?.id as string);
        id = proxy.inject(update);
      } else {
        const replyTo = random.int(2) === 0 ? message.messageId : undefined;
        const update = typedUpdate(q.action.type, replyTo);
        typedIds.push(update.message?.message_id as number);
        id = proxy.inject(update);
      }
      handled.push(proxy.updates.get(id) as Update);
      figures.updatesInjected++;
    }

    for (const [round, kill] of kills.entries()) {
      figures.rounds++;
      const service = serve(
        kill.kind === "crash" ? { ...env, QBRIDGE_TEST_CRASH_AT: kill.at } : env,
        box.dir,
      );
      // A webhook-style retry: one or two updates this service confirmed already, again.
      if (round > 0) {
        for (let r = 0; r < 1 + random.int(2); r++) {
          const again = handled[random.int(handled.length)];
          if (again && !proxy.unconfirmed().includes(again.update_id)) {
            proxy.redeliver(again);
            figures.updatesRedelivered++;
          }
        }
      }
      const { q, message } = await nextPresentation(service);
      if (kill.kind === "api") {
        const held = proxy.armKill({ nth: kill.nth, forward: kill.forward, methods: COUNTED });
        act(q, message);
        await Promise.race([held, new Promise((r) => setTimeout(r, 15_000))]);
        proxy.disarm();
        await service.stop("SIGKILL");
      } else if (kill.kind === "delay") {
        act(q, message);
        await new Promise((r) => setTimeout(r, kill.ms));
        await service.stop("SIGKILL");
      } else {
        act(q, message);
        const code = await eventually(() => service.exited(), 30_000, `the crash at ${kill.at}`);
        expect(code).toBe("SIGKILL");
      }
      figures.kills++;
      figures.updatesRedelivered += proxy.unconfirmed().length;
      await settle(box.dir, kill);
    }

    // The last run: no kill; the rest of the questions are answered, the service stops cleanly.
    const service = serve(env, box.dir);
    while (acted.size < planned.length) {
      const { q, message } = await nextPresentation(service);
      act(q, message);
    }
    const answered = () => diskCards(box.dir).filter((c) => c.card?.status === "answered");
    await eventually(
      () => answered().length === planned.length || undefined,
      30_000,
      "every question to be answered",
    ).catch((error) => {
      const open = planned.filter((q) => !answered().some((c) => c.id === q.id));
      throw new Error(`${error.message}: still open ${open.map((q) => q.prompt).join("; ")}`);
    });
    // A copy Telegram showed while the kill kept the ledger from learning of it: its buttons
    // answer nothing and point to the newer message.
    const copies = presentations().filter((c) => cutOff(c, recorded()));
    figures.sendsLostInCrashWindow = copies.length;
    for (const call of copies) {
      const message = presentationOf(call);
      const button = message.buttons.find((b) => b.callback_data);
      if (!button?.callback_data) continue;
      const update = tapUpdate(message, button.callback_data, ++callbacks);
      tapIds.push(update.callback_query?.id as string);
      proxy.inject(update);
    }
    const acked = (id: string) =>
      proxy.calls.some(
        (c) =>
          c.method === "answerCallbackQuery" &&
          c.payload.callback_query_id === id &&
          !c.withheld &&
          c.result !== undefined,
      );
    await eventually(
      () => tapIds.every(acked) || undefined,
      15_000,
      "every tap to be acknowledged",
    );
    await eventually(() => proxy.unconfirmed().length === 0 || undefined, 15_000, "the offset");
    // Start-up may still be taking over a killed writer's locks before it says so.
    await eventually(
      () => service.stderr().includes("qbridge serve is running") || undefined,
      20_000,
      "serve to finish starting",
    );
    expect(await service.stop("SIGTERM"), service.stderr()).toBe("0");

    // Every answer landed once, as given, with its one job.
    const cards = new Map(diskCards(box.dir).map((c) => [c.id, c.card]));
    for (const q of planned) {
      const card = cards.get(q.id);
      expect(card?.status, q.prompt).toBe("answered");
      expect(card?.answer?.text, q.prompt).toBe(q.expect.text);
      if (q.expect.selected) expect(card?.answer?.selected, q.prompt).toBe(q.expect.selected);
      expect(card?.["answered-via"]).toBe("telegram");
      expect(card?.["answered-by"]).toBe(String(OWNER));
    }
    expect(diskJobs(box.dir)).toEqual(planned.map((q) => q.id).sort());
    const { subjects, linear } = await history(box.dir);
    expect(subjects.filter((s) => s.startsWith("answer:"))).toHaveLength(planned.length);
    expect(linear).toBe(true);

    // No question was shown twice, except a send the kill cut off before the ledger saw it.
    const seen = recorded();
    try {
      let extra = 0;
      for (const q of planned) {
        const shown = presentations().filter((c) => String(c.payload.text).includes(q.prompt));
        const lost = shown.filter((c) => cutOff(c, seen)).length;
        extra += Math.max(0, shown.length - 1 - lost);
        const rows = ledger
          .prepare("SELECT state FROM presentations WHERE question_id = ?")
          .all(q.id) as { state: string }[];
        expect(
          rows.filter((r) => r.state === "resolved"),
          q.prompt,
        ).toHaveLength(1);
      }
      figures.duplicatesFound = extra;
      expect(extra).toBe(0);
    } finally {
      ledger.close();
    }

    // Every typed answer was confirmed in the chat with a reply to it.
    for (const messageId of typedIds) {
      const replies = proxy.calls.filter(
        (c) =>
          c.method === "sendMessage" &&
          c.result !== undefined &&
          !c.withheld &&
          (c.payload.reply_parameters as { message_id?: number } | undefined)?.message_id ===
            messageId,
      );
      expect(replies.map((c) => String(c.payload.text))).toContainEqual(
        expect.stringMatching(/^✅ Recorded/),
      );
    }
  }, 240_000);
});
