// The agent's side, each figure beside its floor in the same run:
// (d) an MCP `ask_human` round trip over Streamable HTTP (/mcp) vs `POST /api/v1/questions`,
//     both against the same web server and box, alternating so both see the same repository;
// (e) a Telegram tap until the outcome reaches an MCP client waiting in `get_answer` vs the same
//     tap until its acknowledgement is sent. The bot is the real one with its Bot API answered
//     in process, and the MCP client talks in memory, so neither figure measures a network.

import { rmSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transformer } from "grammy";
import type { Update } from "grammy/types";
import { createBot } from "../bridges/telegram/bot.ts";
import { telegram } from "../bridges/telegram/bridge.ts";
import { loadConfig } from "../src/config.ts";
import { serveMcp } from "../src/mcp/http.ts";
import { createMcpServer } from "../src/mcp/server.ts";
import { askQuestion } from "../src/questions/ask.ts";
import { declared } from "../src/slot/bridge.ts";
import { openDoor } from "../src/slot/door.ts";
import { createSlot } from "../src/slot/slot.ts";
import { startWeb } from "../src/web/server.ts";
import { boxCards, buildBox } from "./fixture.ts";
import { row } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 25);
const OWNER = 1001;
const TOKEN = "bench-token-0123456789abcdef";

const question = (i: number, via: string) => ({
  prompt: `Bench question ${via} ${i}: may I rotate the logs?`,
  memo: "The log folder is growing; rotation keeps the last 30 days.",
  directive: "Rotate the logs.",
});

async function benchAsk(): Promise<string> {
  const { core, dir } = await buildBox(boxCards(1_000), 1);
  const config = loadConfig({ QBRIDGE_WEB_PORT: "0", QBRIDGE_API_TOKEN: TOKEN }, { box: dir });
  const web = await startWeb({ core, config, mcp: serveMcp });
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${web.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
    }),
  );
  const mcp: number[] = [];
  const api: number[] = [];
  for (let i = -1; i < RUNS; i++) {
    const q = question(i, "mcp");
    let t0 = process.hrtime.bigint();
    const result = await client.callTool({
      name: "ask_human",
      arguments: { ...q, type: "confirm", unless_open: false },
    });
    if (result.isError) throw new Error(`ask_human failed: ${JSON.stringify(result.content)}`);
    const mcpMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const body = { ...question(i, "api"), input: { type: "confirm" } };
    t0 = process.hrtime.bigint();
    const response = await fetch(`${web.url}/api/v1/questions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    await response.json();
    if (response.status !== 201) throw new Error(`POST /api/v1/questions: ${response.status}`);
    const apiMs = Number(process.hrtime.bigint() - t0) / 1e6;
    // The first pair warms both paths up (module loading, the scan index) and is not counted.
    if (i >= 0) {
      mcp.push(mcpMs);
      api.push(apiMs);
    }
  }
  await client.close();
  await web.close();
  core.ledger.close();
  rmSync(dir, { recursive: true, force: true });
  return row(`MCP ask_human round trip @${boxCards(1_000)}`, mcp, "POST /api/v1/questions", api);
}

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

async function benchTapToAgent(): Promise<string> {
  const { core, dir } = await buildBox(boxCards(1_000), 1);
  let ackedAt = 0n;
  const slot = createSlot({ core });
  const bridge = createBot({
    token: "1:bench",
    door: openDoor(slot, declared(telegram.surface, telegram.proves, String(OWNER))),
    logger: { info() {}, warn() {}, error() {} },
    botInfo: { id: 1, is_bot: true, first_name: "bench", username: "bench_bot" } as never,
    transformers: [
      localApi(() => {
        ackedAt = process.hrtime.bigint();
      }),
    ],
  });
  const server = createMcpServer({ core, timeZone: "UTC" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(clientSide);

  const delivered: number[] = [];
  const acked: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Each run files one question and answers the one presented, so the queue never runs dry.
    await askQuestion(core, { ...question(i, "tap"), input: { type: "confirm" } });
    await slot.reconcile();
    const open = slot.current();
    if (!open?.messageId) throw new Error("nothing presented");
    const id = open.questionId;
    const { token } = core.ledger.db
      .prepare(
        "SELECT token FROM button_tokens WHERE presentation_seq = ? AND option_id IN ('finance', 'yes')",
      )
      .get(open.seq) as { token: string };
    let waiting: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    let deliveredAt = 0n;
    const call = client
      .callTool({ name: "get_answer", arguments: { id, wait_seconds: 50 } }, undefined, {
        onprogress: () => waiting(),
      })
      .then(() => {
        deliveredAt = process.hrtime.bigint();
      });
    await started;
    // The waiter sets its watches right after the first progress; let it settle (untimed).
    await new Promise((r) => setTimeout(r, 20));
    const update = {
      update_id: 20_000 + i,
      callback_query: {
        id: `bench-agent-${i}`,
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
    const t0 = process.hrtime.bigint();
    await bridge.handleUpdate(update);
    await call;
    acked.push(Number(ackedAt - t0) / 1e6);
    delivered.push(Number(deliveredAt - t0) / 1e6);
  }
  await client.close();
  await slot.close();
  core.ledger.close();
  rmSync(dir, { recursive: true, force: true });
  return row("tap→outcome in waiting get_answer", delivered, "tap→ack (same taps)", acked);
}

export async function benchAgent(): Promise<string[]> {
  return [await benchAsk(), await benchTapToAgent()];
}
