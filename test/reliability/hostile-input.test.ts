// Story: the bot meets input nobody planned for. fast-check generates update streams: taps
// with callback data of random bytes and lengths (and real tokens in the wrong hands),
// messages from strangers and groups, replies to random message ids, Unicode text up to 10 KB,
// updates with parts missing; mixed in, on purpose, the boxholder's valid taps. Each stream is
// fed to the real bot (handleUpdate, the Bot API being the emulator) over a box with queued
// questions. Only the valid taps ever change a card; nothing reaches the bot's error handler;
// every refusal is in the audit. Then malformed card files (bad YAML, wrong types, a
// contradictory lifecycle, a huge file, a symlink out of the box, cards over the parsing limits:
// an alias bomb, deep nesting, 10 MB) never stop a scan, never stop a command, a page or the
// API, and dropped into a running service's box they never stop it presenting the good ones.

import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import type { Update } from "grammy/types";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createBot } from "../../bridges/telegram/bot.ts";
import { BRIDGES } from "../../src/cli/bridges.ts";
import { loadConfig } from "../../src/config.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { pendingQuestions } from "../../src/questions/state.ts";
import { startService } from "../../src/service.ts";
import { createSlot } from "../../src/slot/slot.ts";
import {
  cleanupBoxes,
  cliEnv,
  confirmCard,
  copyBox,
  gitLog,
  makeBox,
  pendingCardText,
  prepareBox,
  questionRel,
  runCli,
  selectCard,
  T0,
  textCard,
} from "../support/box.ts";
import {
  type Call,
  type Emulator,
  eventually,
  OWNER,
  recorder,
  startEmulator,
  TOKEN,
  telegramDoor,
  toBotMessage,
} from "../support/telegram.ts";
import { API_TOKEN, webFixture } from "../web/web-support.ts";
import { diskCards, diskJobs, printFigures } from "./invariants.ts";
import { SOAK } from "./soak.ts";

/** Generated update streams, each over its own box; the seeded fifteen hold every kind of event. */
const STREAMS = SOAK > 1 ? 40 * SOAK : 15;
/** Generated sets of malformed card files, all scanned in one box. */
const SCANS = 40 * SOAK;
const figures = { properties: 0, runs: 0, updates: 0, validTaps: 0, refusalsAudited: 0 };

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  printFigures("hostile input", figures);
  await emulator.stop();
});
afterEach(cleanupBoxes);

/** A logger that keeps what reaches the error handler. */
function errorLog() {
  const errors: unknown[] = [];
  return {
    errors,
    logger: {
      info() {},
      warn() {},
      error(obj: object) {
        errors.push(obj);
      },
    },
  };
}

// --- the generated events ---------------------------------------------------------------

type Sender = { userId: number; chatId: number; type: "private" | "group" | "supergroup" };
type Event =
  | { kind: "tap"; who: Sender; data: DataChoice; messageId: IdChoice }
  | { kind: "text"; who: Sender; text: string; replyTo: IdChoice | undefined }
  | { kind: "owner-junk"; text: string; replyTo: IdChoice | undefined }
  | { kind: "owner-forged-tap"; data: string; messageId: IdChoice }
  | { kind: "shapeless"; variant: number; text: string }
  | { kind: "valid-tap"; option: "a)" | "b)" };
type DataChoice = { real: number } | { random: string };
type IdChoice = { real: true } | { random: number };

const OWNER_GROUP = -4004;
const stranger = fc.record({
  userId: fc.integer({ min: 1, max: 2 ** 40 }).filter((id) => id !== OWNER),
  chatId: fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
  type: fc.constantFrom("private" as const, "group" as const, "supergroup" as const),
});
const ownerInGroup = fc.constantFrom<Sender>(
  { userId: OWNER, chatId: OWNER_GROUP, type: "group" },
  { userId: OWNER, chatId: -1_000_000_000_123, type: "supergroup" },
);
const hostileSender = fc.oneof(stranger, ownerInGroup);
const randomData = fc.oneof(
  fc.string({ maxLength: 100 }),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b).toString("latin1")),
  fc.uint8Array({ minLength: 12, maxLength: 12 }).map((b) => Buffer.from(b).toString("base64url")),
);
const dataChoice = fc.oneof(
  fc.integer({ min: 0, max: 5 }).map((real) => ({ real })),
  randomData.map((random) => ({ random })),
);
const idChoice = fc.oneof(
  fc.constant({ real: true as const }),
  fc.integer({ min: -5, max: 2 ** 31 }).map((random) => ({ random })),
);
const bigText = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.string({ unit: "grapheme", minLength: 2000, maxLength: 10_000 }),
);

const event: fc.Arbitrary<Event> = fc.oneof(
  fc.record({
    kind: fc.constant("tap" as const),
    who: hostileSender,
    data: dataChoice,
    messageId: idChoice,
  }),
  fc.record({
    kind: fc.constant("text" as const),
    who: hostileSender,
    text: bigText,
    replyTo: fc.option(idChoice, { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant("owner-junk" as const),
    // "~" first: no letter, label, yes/no or command can start it, so it can never resolve.
    text: bigText.map((t) => `~${t}`),
    replyTo: fc.option(idChoice, { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant("owner-forged-tap" as const),
    data: randomData,
    messageId: idChoice,
  }),
  fc.record({
    kind: fc.constant("shapeless" as const),
    variant: fc.integer({ min: 0, max: 3 }),
    text: fc.string({ maxLength: 50 }),
  }),
  fc.record({
    kind: fc.constant("valid-tap" as const),
    option: fc.constantFrom("a)" as const, "b)" as const),
  }),
);

// --- the run ------------------------------------------------------------------------------

interface Shown {
  messageId: number;
  questionId: string;
  buttons: { text: string; callback_data?: string }[];
}

/** A box with three queued questions, built once and copied for each generated stream. */
async function prepareQueue(): Promise<{ prepared: string; ids: string[] }> {
  const ids: string[] = [];
  const cards = [
    selectCard({ prompt: "H0?" }),
    confirmCard({ prompt: "H1?" }),
    selectCard({ prompt: "H2?" }),
  ];
  const prepared = await prepareBox(async (box) => {
    for (const [i, card] of cards.entries()) {
      const { id } = await askQuestion(box, { ...card, "asked-at": `2026-07-09T1${i}:00:00Z` });
      ids.push(id);
    }
  });
  return { prepared, ids };
}

async function openBot(prepared: string) {
  const box = copyBox(prepared);
  const slot = createSlot({ core: box });
  const rec = recorder();
  const log = errorLog();
  const bridge = createBot({
    token: TOKEN,
    apiRoot: emulator.apiRoot,
    door: telegramDoor(slot, String(OWNER)),
    logger: log.logger,
    transformers: [rec.transformer],
  });
  await bridge.init();
  await slot.reconcile();
  return { box, slot, bridge, rec, log };
}

let updateId = 1;
let callbackId = 1;

function updateFor(
  e: Event,
  shown: Shown | undefined,
  messageId: () => number,
): Omit<Update, "update_id"> {
  const realId = (choice: IdChoice) => ("real" in choice ? (shown?.messageId ?? 1) : choice.random);
  const token = (choice: DataChoice) =>
    "real" in choice
      ? (shown?.buttons.filter((b) => b.callback_data)[choice.real % 4]?.callback_data ?? "x")
      : choice.random;
  const user = (id: number) => ({ id, is_bot: false, first_name: `U${id}` });
  const chatOf = (s: Sender) => ({
    id: s.chatId,
    type: s.type,
    ...(s.type === "private" ? { first_name: "P" } : { title: "G" }),
  });
  const owner: Sender = { userId: OWNER, chatId: OWNER, type: "private" };
  const tap = (s: Sender, data: string, mid: number) => ({
    callback_query: {
      id: `h-${callbackId++}`,
      from: user(s.userId),
      chat_instance: `ci-${s.chatId}`,
      data,
      message: { message_id: mid, date: 0, chat: chatOf(s), text: "" },
    },
  });
  const text = (s: Sender, t: string, replyTo: IdChoice | undefined) => ({
    message: {
      message_id: messageId(),
      date: 0,
      chat: chatOf(s),
      from: user(s.userId),
      text: t,
      ...(replyTo
        ? { reply_to_message: { message_id: realId(replyTo), date: 0, chat: chatOf(s) } }
        : {}),
    },
  });
  switch (e.kind) {
    case "tap":
      return tap(e.who, token(e.data), realId(e.messageId)) as never;
    case "text":
      return text(e.who, e.text, e.replyTo) as never;
    case "owner-junk":
      return text(owner, e.text, e.replyTo) as never;
    case "owner-forged-tap":
      return tap(owner, e.data, realId(e.messageId)) as never;
    case "valid-tap": {
      // On a yes/no question, a) and b) are its Yes and No buttons.
      const prefixes = e.option === "a)" ? ["a)", "Yes"] : ["b)", "No"];
      const button = shown?.buttons.find((b) => prefixes.some((p) => b.text.startsWith(p)));
      return tap(owner, button?.callback_data ?? "none", shown?.messageId ?? 1) as never;
    }
    case "shapeless": {
      // Updates with parts missing: a tap with no message, a message with no sender, a
      // non-text message from a stranger, an edited message.
      const variants = [
        {
          callback_query: {
            id: `h-${callbackId++}`,
            from: user(STRANGER_ID),
            chat_instance: "x",
            data: e.text,
            inline_message_id: "im",
          },
        },
        { message: { message_id: messageId(), date: 0, chat: chatOf(owner), text: `~${e.text}` } },
        {
          message: {
            message_id: messageId(),
            date: 0,
            chat: { id: STRANGER_ID, type: "private" },
            from: user(STRANGER_ID),
            sticker: { file_id: e.text },
          },
        },
        {
          edited_message: {
            message_id: 1,
            date: 0,
            edit_date: 0,
            chat: chatOf(owner),
            from: user(OWNER),
            text: e.text,
          },
        },
      ];
      return variants[e.variant] as never;
    }
  }
}
const STRANGER_ID = 2002;

describe("hostile updates against the real bot", () => {
  it(
    "only the boxholder's valid taps change a card; nothing throws; every refusal is audited",
    async () => {
      figures.properties++;
      const { prepared, ids } = await prepareQueue();
      await fc.assert(
        fc.asyncProperty(fc.array(event, { minLength: 1, maxLength: 14 }), async (events) => {
          figures.runs++;
          const { box, slot, bridge, rec, log } = await openBot(prepared);
          const chatIds = { next: 5_000_000 };
          const shownNow = (): Shown | undefined => {
            const open = slot.current();
            if (!open?.messageId) return undefined;
            const call = rec.calls.find(
              (c: Call) =>
                c.method === "sendMessage" &&
                c.result &&
                String((c.result as { message_id: number }).message_id) === open.messageId,
            );
            if (!call) return undefined;
            const m = toBotMessage(call);
            return { messageId: m.messageId, questionId: open.questionId, buttons: m.buttons };
          };
          const expected = new Map<string, string>();
          for (const e of events) {
            const shown = shownNow();
            const update = {
              ...updateFor(e, shown, () => chatIds.next++),
              update_id: updateId++,
            } as Update;
            const auditBefore = box.ledger.auditFor().length;
            await bridge.handleUpdate(update);
            figures.updates++;
            const added = box.ledger.auditFor().slice(auditBefore);
            if (e.kind === "valid-tap" && shown) {
              figures.validTaps++;
              const option = e.option === "a)" ? 0 : 1;
              const card = diskCards(box.dir).find((c) => c.id === shown.questionId)?.card;
              const opts = card?.input.type === "confirm" ? ["yes", "no"] : ["finance", "taxes"];
              expected.set(shown.questionId, opts[option] as string);
            }
            const hostile = e.kind === "tap" || e.kind === "text";
            if (hostile || e.kind === "owner-forged-tap") {
              expect(
                added.map((a) => a.outcome),
                JSON.stringify(update).slice(0, 300),
              ).toContainEqual(expect.stringMatching(/^refused/));
              figures.refusalsAudited++;
            }
            if (e.kind === "owner-junk" && shown) {
              expect(added.map((a) => a.outcome)).toContain("InvalidAnswer");
              figures.refusalsAudited++;
            }
          }
          expect(log.errors).toEqual([]);
          for (const c of diskCards(box.dir)) {
            const want = expected.get(c.id);
            if (want === undefined) {
              expect(c.card?.status, c.id).toBe("pending");
            } else {
              expect(c.card?.status).toBe("answered");
              expect(c.card?.answer?.selected).toBe(want);
              expect(c.card?.["answered-by"]).toBe(String(OWNER));
              expect(c.card?.["answered-via"]).toBe("telegram");
            }
          }
          expect(diskJobs(box.dir)).toEqual([...expected.keys()].sort());
          expect(ids).toHaveLength(3);
          await slot.close();
          box.cleanup();
        }),
        { numRuns: STREAMS, seed: 5_0005, endOnFailure: true },
      );
    },
    120_000 * SOAK,
  );
});

// --- malformed cards ---------------------------------------------------------------------

/** "Billion laughs": nine levels of nine aliases each, 9^9 strings once expanded. */
const ALIAS_BOMB = (() => {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) {
    lines.push(
      `a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(",")}]`,
    );
  }
  return pendingCardText(selectCard({ prompt: "Alias bomb?" })).replace(
    /---\n$/,
    `${lines.join("\n")}\n---\n`,
  );
})();
/** A valid card plus an unknown key nested far deeper than any card needs. */
const DEEP_FLOW = pendingCardText(selectCard({ prompt: "Deep flow?" })).replace(
  /---\n$/,
  `deep: ${"[".repeat(50_000)}${"]".repeat(50_000)}\n---\n`,
);
const DEEP_BLOCK = pendingCardText(selectCard({ prompt: "Deep block?" })).replace(
  /---\n$/,
  `deep:\n${Array.from({ length: 40 }, (_, i) => `${"  ".repeat(i + 1)}k${i}:`).join("\n")} end\n---\n`,
);
const TEN_MB = pendingCardText(selectCard({ prompt: "Ten megabytes?" }), "x".repeat(10 * 2 ** 20));
const OVER_LIMITS = {
  "alias-bomb": ALIAS_BOMB,
  "deep-flow": DEEP_FLOW,
  "deep-block": DEEP_BLOCK,
  "ten-mb": TEN_MB,
};

const garbage = fc.oneof(
  fc.string({ unit: "binary", maxLength: 400 }),
  fc.string({ maxLength: 200 }).map((s) => `---\n${s}\n---\n`),
  fc.constantFrom(
    "---\nstatus: [pending\n---\n",
    "---\nstatus: pending\nprompt: 42\ninput: yes\n---\n",
    "---\nstatus: pending\nasked-at: not a time\nmemo: m\nprompt: p\ninput: {type: text}\ndirective: d\nanswered-at: 2026-07-01T00:00:00Z\n---\n",
    "---\n- a list\n- not a map\n---\n",
    "\u0000\u0001\u0002",
    ...Object.values(OVER_LIMITS),
  ),
);

describe("malformed cards", () => {
  it("never stop a scan: the good questions are listed, each bad file is named with a reason", async () => {
    figures.properties++;
    const box = await makeBox();
    const good = await askQuestion(box, selectCard({ prompt: "Still here?" }));
    let n = 0;
    await fc.assert(
      fc.property(fc.array(garbage, { minLength: 1, maxLength: 4 }), (texts) => {
        figures.runs++;
        const names = texts.map((text) => {
          const id = `bad-${n++}`;
          writeFileSync(join(box.dir, questionRel(id)), text);
          return id;
        });
        const { pending, unreadable } = pendingQuestions(box);
        expect(pending.map((q) => q.id)).toContain(good.id);
        for (const id of names) {
          const readable = pending.some((q) => q.id === id);
          const named = unreadable.some((u) => u.rel === questionRel(id) && u.reason.length > 0);
          expect(readable || named, id).toBe(true);
        }
      }),
      { numRuns: SCANS, seed: 5_0006 },
    );
  });

  it("over a parsing limit (alias bomb, deep nesting, 10 MB) leave list, waiting, doctor, age, ask, the API list and the questions page working", async () => {
    figures.properties++;
    const web = await webFixture();
    const dir = web.box.dir;
    const good = await web.ask(selectCard({ prompt: "Still answerable?" }));
    for (const [id, text] of Object.entries(OVER_LIMITS)) {
      writeFileSync(join(dir, questionRel(id)), text);
    }
    const env = cliEnv(dir);
    const [list, waitingOut, doctor, age] = await Promise.all([
      runCli(["list", "--json"], { env }),
      runCli(["waiting", "--json"], { env }),
      runCli(["doctor", "--json"], { env }),
      runCli(["age", "--json"], { env }),
    ]);
    for (const run of [list, waitingOut, doctor, age]) {
      expect(run.stderr).not.toContain("unexpected failure");
    }
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).pending.map((q: { id: string }) => q.id)).toEqual([good]);
    expect(waitingOut.code, waitingOut.stderr).toBe(0);
    expect(JSON.parse(waitingOut.stdout).count).toBe(1);
    expect(age.code, age.stderr).toBe(0);
    // doctor names each card with the limit it breaks, and exits 1 while they remain.
    expect(doctor.code, doctor.stderr).toBe(1);
    const reasons = Object.fromEntries(
      (JSON.parse(doctor.stdout).findings as { kind: string; path: string; problem: string }[])
        .filter((f) => f.kind === "unreadable-card")
        .map((f) => [f.path, f.problem]),
    );
    expect(reasons).toEqual({
      [questionRel("alias-bomb")]: expect.stringContaining("aliases"),
      [questionRel("deep-flow")]: expect.stringContaining("32 levels"),
      [questionRel("deep-block")]: expect.stringContaining("32 levels"),
      [questionRel("ten-mb")]: expect.stringContaining("262144-byte card limit"),
    });
    const asked = await runCli(["ask", "--json"], { env, input: JSON.stringify(confirmCard()) });
    expect(asked.code, asked.stderr).toBe(0);
    const second = JSON.parse(asked.stdout).id as string;

    const api = await web.app.request("/api/v1/questions", { headers: web.auth(API_TOKEN) });
    expect(api.status).toBe(200);
    const listed = (await api.json()) as { questions: { id: string }[]; unreadable: unknown[] };
    expect(listed.questions.map((q) => q.id).sort()).toEqual([good, second].sort());
    expect(listed.unreadable).toHaveLength(4);
    const posted = await web.app.request("/api/v1/questions", {
      method: "POST",
      headers: { ...web.auth(API_TOKEN), "content-type": "application/json" },
      body: JSON.stringify(textCard()),
    });
    expect(posted.status).toBe(201);
    const page = await web.app.request(web.link({ page: "questions" }));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Still answerable?");
  });

  it("dropped into a running service's box never stop it presenting the good questions", async () => {
    const box = await makeBox();
    const rec = recorder();
    const log = errorLog();
    const config = loadConfig(
      {
        QBRIDGE_BOX: box.dir,
        QBRIDGE_TIME: T0,
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_OWNER_ID: String(OWNER),
        TELEGRAM_API_ROOT: emulator.apiRoot,
      },
      {},
      BRIDGES,
    );
    const quiet = { ...log.logger, debug() {}, child: () => quiet } as never;
    const service = await startService({
      config,
      logger: quiet,
      web: false,
      watchMs: 100,
      seams: { telegram: { transformers: [rec.transformer], idleMs: 20 } },
    });
    try {
      const dir = join(box.dir, "_bookkeeping/questions");
      writeFileSync(join(dir, "bad-yaml.question.card"), "---\nstatus: [pending\n---\n");
      writeFileSync(
        join(dir, "wrong-types.question.card"),
        "---\nstatus: pending\nprompt: 42\ninput: 7\n---\n",
      );
      writeFileSync(
        join(dir, "contradiction.question.card"),
        pendingCardText({
          ...selectCard({ prompt: "Contradiction?" }),
          answer: { text: "Finance" },
          "answered-at": T0,
        }),
      );
      writeFileSync(
        join(dir, "huge.question.card"),
        pendingCardText(selectCard({ prompt: "Huge?" }), "x".repeat(400_000)),
      );
      symlinkSync("/etc/passwd", join(dir, "outside.question.card"));
      mkdirSync(join(dir, "nested"), { recursive: true });
      symlinkSync(box.dir, join(dir, "nested", "loop.question.card"));
      for (const [id, text] of Object.entries(OVER_LIMITS)) {
        writeFileSync(join(dir, `${id}.question.card`), text);
      }

      const { id: first } = await askQuestion(
        box,
        selectCard({ prompt: "Good one?", priority: "high" }),
      );
      const presented = await eventually(
        () =>
          rec.calls.find(
            (c) =>
              c.method === "sendMessage" &&
              String(c.payload.text).includes("Good one?") &&
              c.result,
          ),
        5_000,
        "the good question to be presented",
      );
      const message = toBotMessage(presented);
      const next = await askQuestion(box, confirmCard({ prompt: "Good two?" }));
      const client = emulator.server.getClient(TOKEN, { userId: OWNER, chatId: OWNER });
      const button = message.buttons.find((b) => b.text.startsWith("a)"));
      await client.sendCallback(
        client.makeCallbackQuery((button as { callback_data: string }).callback_data, {
          message: { message_id: message.messageId },
        }),
      );
      await eventually(
        () =>
          rec.calls.find(
            (c) => c.method === "sendMessage" && String(c.payload.text).includes("Good two?"),
          ),
        5_000,
        "the next good question to be presented",
      );
      await client.sendCommand(client.makeCommand("/waiting"));
      await eventually(
        () =>
          rec.calls.find(
            (c) =>
              c.method === "sendMessage" &&
              String(c.payload.text).startsWith("1 waiting on you. Open now: <b>Good two?"),
          ),
        5_000,
        "/waiting to be answered",
      );
      const cards = new Map(diskCards(box.dir).map((c) => [c.id, c]));
      expect(cards.get(first)?.card?.status).toBe("answered");
      expect(cards.get(next.id)?.card?.status).toBe("pending");
      for (const bad of [
        "Contradiction?",
        "Huge?",
        "Alias bomb?",
        "Deep flow?",
        "Ten megabytes?",
      ]) {
        expect(
          rec.calls.some((c) => c.method === "sendMessage" && String(c.payload.text).includes(bad)),
        ).toBe(false);
      }
      expect(log.errors).toEqual([]);
    } finally {
      await service.stop();
    }
  });
});

describe("control characters", () => {
  it("card text a card may hold (a lone carriage return, a C1 control) reaches the terminal from show, list and waiting escaped; --json reads back the same text", async () => {
    figures.properties++;
    const box = await makeBox();
    const prompt = "Deploy \u009b2J now?";
    const memo = "Drop the production database.\r  Why: Tidy the logs.\r\nMore.";
    const { id } = await askQuestion(box, confirmCard({ prompt, memo }));
    for (const args of [["show", id], ["list"], ["waiting"], ["show", id, "--json"]]) {
      const out = await runCli(args, { env: cliEnv(box.dir) });
      expect(out.code).toBe(0);
      expect(out.stdout).not.toMatch(/(?![\t\n]|\r\n)\p{Cc}/u);
    }
    const shown = await runCli(["show", id], { env: cliEnv(box.dir) });
    expect(shown.stdout).toContain("Deploy \\u009b2J now?");
    expect(shown.stdout).toContain(
      "Drop the production database.\\u000d  Why: Tidy the logs.\r\nMore.",
    );
    const json = await runCli(["show", id, "--json"], { env: cliEnv(box.dir) });
    expect(JSON.parse(json.stdout).card).toMatchObject({ prompt, memo });
  });

  it("are refused with one sentence where they make no sense: 422 from the API, exit 1 from the CLI; tabs and line breaks pass", async () => {
    figures.properties++;
    const web = await webFixture();
    const post = (path: string, body: unknown) =>
      web.app.request(`/api/v1${path}`, {
        method: "POST",
        headers: { ...web.auth(API_TOKEN), "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const commits = (await gitLog(web.box.dir)).length;

    const asked = await post("/questions", selectCard({ prompt: "Where\u0000 to?" }));
    expect(asked.status).toBe(422);
    const askedError = ((await asked.json()) as { error: { message: string } }).error.message;
    expect(askedError).toBe(
      "the question is not valid: prompt: must not contain control characters (tabs and line breaks are fine)",
    );
    const cli = await runCli(["ask", "--json"], {
      env: cliEnv(web.box.dir),
      input: JSON.stringify(confirmCard({ memo: "Bell \u0007 and escape \u001b[31m." })),
    });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(
      /^qbridge: .*memo: must not contain control characters \(tabs and line breaks are fine\)\n$/,
    );
    expect(await gitLog(web.box.dir)).toHaveLength(commits);

    const id = await web.ask(textCard({ prompt: "Tabs\tand\nlines?" }));
    const refused = await post(`/questions/${id}/answer`, { answer: "Ann\u0000Smith" });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      "the answer contains a control character (U+0000): answers may carry tabs and line breaks, no other control characters",
    );
    const escaped = await runCli(["answer", id, "Ann \u001b[2J Smith"], {
      env: cliEnv(web.box.dir),
    });
    expect(escaped.code).toBe(1);
    expect(escaped.stderr).toBe(
      "qbridge: the answer contains a control character (U+001B): answers may carry tabs and line breaks, no other control characters\n",
    );
    const answered = await post(`/questions/${id}/answer`, { answer: "Ann\tSmith\nline two" });
    expect(answered.status).toBe(200);
    expect(web.jobs()).toHaveLength(1);
  });
});
