// The phone end to end, against a real `qbridge serve` (Telegram on the telegram-test-api
// emulator on loopback, through a recording proxy that notes when each Bot API call arrives):
// (f) filed to phone: from `qbridge ask` starting to the bot's sendMessage of that question,
//     beside that `qbridge ask` alone (start to exit), right after start and in steady state,
//     budget 1.1x. The permission hook's figures are in hook.ts.

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TelegramServer } from "telegram-test-api/lib/telegramServer.js";
import { nodeStartEnv } from "./fixture.ts";
import { budgetRow } from "./stats.ts";

const RUNS = Number(process.env.BENCH_PHONE_RUNS ?? 8);
const TOKEN = "123456789:BENCHTOKENabcdefghijklmnopqrstuvwxyz";
const OWNER = 1001;
const CLI = join(import.meta.dirname, "../bin/qbridge.cjs");

interface ApiCall {
  method: string;
  at: number;
  text: string;
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

/** Forwards every Bot API call to the emulator, noting its method, arrival and body. */
function recordingProxy(target: URL, calls: ApiCall[]): Promise<Server> {
  const proxy = createServer((req, res) => {
    const at = now();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const method = (req.url ?? "").split("/").at(-1)?.split("?")[0] ?? "";
      calls.push({ method, at, text: body.toString("utf8") });
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => res.writeHead(502).end());
      upstream.end(body);
    });
  });
  return new Promise((resolve) => proxy.listen(0, "127.0.0.1", () => resolve(proxy)));
}

async function until<T>(check: () => T | undefined, what: string, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** A qbridge command, and when it exited. */
function run(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [CLI, ...args], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<number>((resolve) => child.on("exit", () => resolve(now())));
  return { child, exited };
}

export async function benchPhone(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "qbridge-bench-phone-"));
  const box = join(dir, "box");
  const emulator = new TelegramServer({ port: 0, host: "127.0.0.1", storeTimeout: 600 });
  const calls: ApiCall[] = [];
  await emulator.start();
  const proxy = await recordingProxy(new URL(emulator.config.apiURL), calls);
  const { port } = proxy.address() as { port: number };
  const env = { ...nodeStartEnv(), QBRIDGE_BOX: box, QBRIDGE_LOG_LEVEL: "warn" };
  const serveEnv = {
    ...env,
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_OWNER_ID: String(OWNER),
    TELEGRAM_API_ROOT: `http://127.0.0.1:${port}`,
    QBRIDGE_WEB_PORT: "0",
  };
  const user = emulator.getClient(TOKEN, { userId: OWNER, chatId: OWNER, firstName: "Owner" });
  const sentWith = (text: string, from: number) =>
    calls.find((c) => c.method === "sendMessage" && c.at >= from && c.text.includes(text));
  /** Taps the first button of the message that holds `text`; returns when it was sent. */
  const tapFirst = async (text: string, label = "") => {
    const m = await until(
      () =>
        emulator.storage.botMessages
          .filter((b: { message: unknown }) => JSON.stringify(b.message).includes(text))
          .at(-1),
      "the bot's message in the emulator",
    );
    const markup = m.message.reply_markup as {
      inline_keyboard: { text: string; callback_data: string }[][];
    };
    const buttons = markup.inline_keyboard.flat();
    const button = buttons.find((b) => b.text.includes(label));
    if (!button) throw new Error(`bench: no "${label}" in ${buttons.map((b) => b.text)}`);
    const data = button.callback_data;
    const at = now();
    await user.sendCallback(user.makeCallbackQuery(data, { message: { message_id: m.messageId } }));
    return at;
  };
  const ask = (i: number) => {
    const prompt = `Bench phone ${i}: may I rotate the logs?`;
    const args = [
      "ask",
      "--type",
      "confirm",
      "--prompt",
      prompt,
      "--memo",
      "The log folder grows.",
    ];
    return { prompt, started: now(), ...run([...args, "--directive", "Rotate the logs."], env) };
  };
  const phone = {
    first: [] as number[],
    firstAsk: [] as number[],
    steady: [] as number[],
    steadyAsk: [] as number[],
  };
  let serve: ChildProcess | undefined;
  try {
    // Right after start: over a box made beforehand, the question is filed as serve starts.
    await run(["init"], env).exited;
    serve = spawn(process.execPath, [CLI, "serve"], { env: serveEnv, stdio: "ignore" });
    const first = ask(-1);
    const firstDone = await first.exited;
    const firstSent = await until(
      () => sentWith(first.prompt, first.started),
      "the first question",
    );
    phone.first.push(firstSent.at - first.started);
    phone.firstAsk.push(firstDone - first.started);
    await tapFirst(first.prompt);
    for (let i = 0; i < RUNS; i++) {
      const a = ask(i);
      const done = await a.exited;
      const sent = await until(() => sentWith(a.prompt, a.started), "a question on the phone");
      phone.steady.push(sent.at - a.started);
      phone.steadyAsk.push(done - a.started);
      const acked = calls.length;
      await tapFirst(a.prompt);
      await until(() => calls.slice(acked).find((c) => c.method === "answerCallbackQuery"), "ack");
    }
  } finally {
    serve?.kill("SIGTERM");
    if (serve && serve.exitCode === null) await new Promise((r) => serve?.once("exit", r));
    proxy.close();
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return [
    budgetRow(
      "filed→phone, first after start",
      phone.first,
      "that qbridge ask alone",
      phone.firstAsk,
      1.1,
    ),
    budgetRow("filed→phone, steady", phone.steady, "those qbridge ask alone", phone.steadyAsk, 1.1),
  ];
}
