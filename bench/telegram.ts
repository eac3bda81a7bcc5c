// Tap-to-acknowledge latency: from a callback reaching the bot to its answerCallbackQuery being
// sent, beside the answer transition alone, with 1 and 1,000 questions queued. The bot is the
// real one; its Bot API calls are answered in process, so the network is not measured.
// Each round taps a question the slot never presented before and leaves it answered: the slot
// holds off a question it presents again and again (its repeat guard), so a question put back
// to pending and tapped round after round would stop being presented. The box starts with RUNS
// more pending questions than queued, and one more for the floor's transition.

import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Transformer } from "grammy";
import type { Update } from "grammy/types";
import { createBot } from "../bridges/telegram/bot.ts";
import { telegram } from "../bridges/telegram/bridge.ts";
import { answerQuestion } from "../src/questions/answer.ts";
import { loadQuestion } from "../src/questions/store.ts";
import { declared } from "../src/slot/bridge.ts";
import { openDoor } from "../src/slot/door.ts";
import { createSlot } from "../src/slot/slot.ts";
import { bareGit, boxCards, buildBox } from "./fixture.ts";
import { row } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 25);
const OWNER = 1001;

/** Answers every Bot API call at once, noting when the callback answer was sent. */
function localApi(onAck: () => void): Transformer {
  let messageId = 1;
  return async (_prev, method, payload) => {
    if (method === "answerCallbackQuery") onAck();
    if (method === "sendMessage") {
      const p = payload as { chat_id: number; text: string };
      return {
        ok: true,
        result: {
          message_id: messageId++,
          date: 0,
          chat: { id: Number(p.chat_id), type: "private" },
          text: p.text,
        },
      } as never;
    }
    return { ok: true, result: true } as never;
  };
}

async function benchQueued(queued: number): Promise<string> {
  const { core, dir, pendingIds } = await buildBox(queued + RUNS + 1, queued + RUNS + 1);
  const git = bareGit(dir);
  const texts = new Map(
    pendingIds.map((id) => {
      const rel = loadQuestion(core, id).rel;
      return [id, { rel, text: readFileSync(join(dir, rel), "utf8") }];
    }),
  );
  const reset = (id: string) => {
    const { rel, text } = texts.get(id) as { rel: string; text: string };
    writeFileSync(join(dir, rel), text);
    git("commit", "-q", "-m", "reset", "--", rel);
  };

  let ackedAt = 0n;
  const slot = createSlot({ core });
  const bridge = createBot({
    token: "1:bench",
    door: openDoor(slot, declared(telegram.surface, telegram.proves, String(OWNER))),
    logger: { info() {}, warn() {}, error() {} },
    botInfo: {
      id: 1,
      is_bot: true,
      first_name: "bench",
      username: "bench_bot",
      can_join_groups: false,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
      can_connect_to_business: false,
      has_main_web_app: false,
    } as never,
    transformers: [
      localApi(() => {
        ackedAt = process.hrtime.bigint();
      }),
    ],
  });

  const taps: number[] = [];
  const transitions: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await slot.reconcile();
    const open = slot.current();
    if (!open?.messageId) throw new Error("nothing presented");
    const { token } = core.ledger.db
      .prepare(
        "SELECT token FROM button_tokens WHERE presentation_seq = ? AND option_id = 'finance'",
      )
      .get(open.seq) as { token: string };
    const update = {
      update_id: 10_000 + i,
      callback_query: {
        id: `bench-${i}`,
        from: { id: OWNER, is_bot: false, first_name: "Owner" },
        chat_instance: "bench",
        data: token,
        message: {
          message_id: Number(open.messageId),
          date: 0,
          chat: { id: OWNER, type: "private", first_name: "Owner" },
          text: "",
        },
      },
    } as Update;
    const started = process.hrtime.bigint();
    await bridge.handleUpdate(update);
    taps.push(Number(ackedAt - started) / 1e6);
    if (loadQuestion(core, open.questionId).card.status !== "answered") {
      throw new Error(`the tap on ${open.questionId} recorded no answer`);
    }

    // The floor: another pending question answered directly, then put back to pending.
    await slot.reconcile();
    const shown = slot.current()?.questionId;
    const other = pendingIds.find(
      (id) => id !== shown && loadQuestion(core, id).card.status === "pending",
    ) as string;
    const t0 = process.hrtime.bigint();
    await answerQuestion(core, other, { text: "finance" }, { via: "bench" });
    transitions.push(Number(process.hrtime.bigint() - t0) / 1e6);
    reset(other);
    await slot.reconcile();
  }
  await slot.close();
  core.ledger.close();
  rmSync(dir, { recursive: true, force: true });
  return row(
    `telegram tap→ack @${queued + 1}-${queued + RUNS + 1} pending`,
    taps,
    "answer transition alone",
    transitions,
  );
}

export async function benchTapLatency(): Promise<string[]> {
  const lines: string[] = [];
  for (const queued of [1, boxCards(1_000)]) lines.push(await benchQueued(queued));
  return lines;
}
