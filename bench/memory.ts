// Memory of `qbridge serve` as it runs all year: idle RSS over a box of 10,000 cards, with the
// Telegram bridge on (against the telegram-test-api emulator, whose polls a front holds as
// Telegram does: test/support/long-poll.ts) and the web page on, beside an idle `node` and the
// same service over an empty box, each started the two ways a user starts it:
// `node bin/qbridge.cjs serve` (as `npm start` does) and the installed command as a program
// (installed.ts, as `qbridge serve`, the systemd unit and the container do), whose idle RSS at
// 10,000 cards has a budget of 80 MB either way; each reading with the machine's load average
// (a loaded machine delays V8's collector threads); then RSS before and after 2,000 questions asked and
// answered through the JSON API (BENCH_ROUNDS), read idle and once the heap has settled. The
// growth is given from two starting points: the service idle as started, and idle again after
// its first questions (BENCH_WARM_ROUNDS), once V8 has compiled the code that asking and
// answering run, which a service compiles once whatever it then serves.

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { initBox, openBox } from "../src/box/box.ts";
import { loadSecret, signLink } from "../src/web/links.ts";
import { loggedWebPort } from "../test/support/child.ts";
import { OWNER, startEmulator, TOKEN } from "../test/support/telegram.ts";
import { boxCards, buildBox, NOW } from "./fixture.ts";
import { type Installed, installQbridge } from "./installed.ts";

/** The big box's cards; the budget is for 10,000. */
const BIG = boxCards(10_000);
/** Idle RSS of `qbridge serve` as a user starts it, at 10,000 cards (issue 28). */
const IDLE_BUDGET_MB = 80;

/** How a service is started: through node, or as the program it is (both with node's defaults). */
type StartedAs = "node bin/qbridge.cjs" | "qbridge (program)";
const API_TOKEN = "bench-api-token-0123456789";
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2_000);
const WARM_ROUNDS = Number(process.env.BENCH_WARM_ROUNDS ?? 100);
/**
 * After the rounds, how much longer the settled reading waits. V8 gives a grown heap back
 * through its memory reducer, which looks every 8 s for a low allocation rate and so runs 10 to
 * 25 s after a burst ends: the reading at BENCH_IDLE_MS may come before it.
 */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 30_000);

/** The machine's load average over the last minute, as /proc/loadavg gives it. */
function loadAverage(): string {
  return readFileSync("/proc/loadavg", "utf8").split(" ")[0] ?? "?";
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

/** One-second readings an idle figure is the highest of: five, or fewer in a shorter idle. */
const READINGS = Math.min(5, Math.max(1, Math.round(IDLE_MS / 1_000)));

/** RSS after the process has been idle: the highest of the last one-second readings, the
 * last taken when the idle time is up (no wait after it). */
async function idleRss(child: ChildProcess, idleMs = IDLE_MS): Promise<number> {
  await sleep(Math.max(0, idleMs - (READINGS - 1) * 1_000));
  const readings = [rssMb(child.pid as number)];
  for (let i = 1; i < READINGS; i++) {
    await sleep(1_000);
    readings.push(rssMb(child.pid as number));
  }
  return Math.max(...readings);
}

interface Service {
  child: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

async function startServe(
  installed: Installed,
  boxDir: string,
  apiRoot: string,
  startedAs: StartedAs,
): Promise<Service> {
  const args = ["serve", "--box", boxDir, "--json"];
  const [command, argv] =
    startedAs === "node bin/qbridge.cjs"
      ? [process.execPath, [installed.command, ...args]]
      : [installed.command, args];
  const child = spawn(command, argv, {
    env: {
      ...installed.env({ PATH: process.env.PATH ?? "" }),
      HOME: process.env.HOME ?? "",
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_OWNER_ID: String(OWNER),
      TELEGRAM_API_ROOT: apiRoot,
      // Any free port: the service logs which as it begins to listen.
      QBRIDGE_WEB_PORT: "0",
      QBRIDGE_API_TOKEN: API_TOKEN,
      QBRIDGE_TIME: NOW,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.on("data", (d) => {
    log += d;
  });
  child.stderr?.on("data", (d) => {
    log += d;
  });
  let base = "";
  for (let i = 0; ; i++) {
    const port = loggedWebPort(log);
    try {
      if (port !== undefined) {
        base = `http://127.0.0.1:${port}`;
        if ((await fetch(`${base}/healthz`)).status < 600) break;
      }
    } catch {}
    if (i > 600 || child.exitCode !== null) throw new Error(`serve did not start:\n${log}`);
    await sleep(100);
  }
  return {
    child,
    base,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

async function api(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${API_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/**
 * The questions page of the box opened once (as a user runs serve): how long it took, and the
 * idle RSS after it. The page shows one page of the archive, so neither grows with the box.
 */
async function questionsPageReading(
  service: Service,
  boxDir: string,
  print: (line: string) => void,
): Promise<void> {
  const secret = loadSecret(openBox(boxDir));
  const signature = signLink(secret, { page: "questions" }, new Date(NOW));
  const started = performance.now();
  const response = await fetch(`${service.base}/questions?s=${signature}`);
  await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`the questions page: ${response.status}`);
  const after = await idleRss(service.child);
  print(
    `serve idle RSS @${BIG} cards after the questions page, as a program ${mb(after)} | the page took ${ms.toFixed(0)} ms`,
  );
}

const mb = (n: number) => `${n.toFixed(1).padStart(7)} MB`;

/** Prints each figure as soon as it is measured: the 2,000 rounds take long. */
export async function benchMemory(print: (line: string) => void): Promise<void> {
  const node = spawn(process.execPath, ["-e", "setTimeout(() => {}, 1e9)"]);
  // Idle for two seconds, or for the idle time of the service's readings when that is shorter.
  await sleep(Math.min(2_000, IDLE_MS));
  const nodeRss = rssMb(node.pid as number);
  node.kill();
  const emulator = await startEmulator({ holdPolls: true });
  const installed = installQbridge();
  try {
    let boxDir = "";
    for (const count of [0, BIG]) {
      process.stderr.write(`memory: a box of ${count} cards…\n`);
      const dir = count === 0 ? mkdtempSync(join(tmpdir(), "qbridge-bench-empty-")) : "";
      if (count === 0) await initBox(dir);
      else {
        const built = await buildBox(count, 0);
        built.core.ledger.close();
        boxDir = built.dir;
      }
      if (count === 0) boxDir = dir;
      // Each start builds the card index anew, as a first start over that box does.
      let service: Service | undefined;
      let idle = 0;
      for (const startedAs of ["node bin/qbridge.cjs", "qbridge (program)"] as const) {
        await service?.stop();
        rmSync(join(boxDir, ".qbridge"), { recursive: true, force: true });
        service = await startServe(installed, boxDir, emulator.apiRoot, startedAs);
        idle = await idleRss(service.child);
        const budget =
          count === 10_000
            ? ` | budget ${IDLE_BUDGET_MB} MB: ${idle <= IDLE_BUDGET_MB ? "within" : `OVER by ${(idle - IDLE_BUDGET_MB).toFixed(1)} MB`}`
            : "";
        print(
          `serve idle RSS @${count} cards, ${startedAs.padEnd(20)} ${mb(idle)} | node idle ${mb(nodeRss)} | ratio ${(idle / nodeRss).toFixed(2)}x${budget} | load ${loadAverage()}`,
        );
        if (count === BIG && startedAs === "qbridge (program)") {
          await questionsPageReading(service, boxDir, print);
        }
      }
      if (!service) continue;
      if (count === BIG) {
        const running = service;
        const round = async (i: number) => {
          const asked = await api(running.base, "/questions", {
            prompt: `Bench question ${i}?`,
            memo: "Asked by the memory bench.",
            input: { type: "confirm" },
            directive: "Nothing; a bench.",
          });
          await api(running.base, `/questions/${asked.id as string}/answer`, { answer: "yes" });
        };
        process.stderr.write(`memory: ${WARM_ROUNDS} questions to warm up…\n`);
        for (let i = 0; i < WARM_ROUNDS; i++) await round(-1 - i);
        const warm = await idleRss(service.child);
        process.stderr.write(`memory: ${ROUNDS} questions asked and answered…\n`);
        for (let i = 0; i < ROUNDS; i++) {
          if (i > 0 && i % 100 === 0) process.stderr.write(`memory: ${i} of ${ROUNDS}…\n`);
          await round(i);
        }
        const after = await idleRss(service.child);
        await sleep(Math.max(0, SETTLE_MS - 5_000));
        const settled = await idleRss(service.child, 0);
        const growth = (rss: number, from: number) =>
          `${(((rss - from) / from) * 100).toFixed(1)}%`;
        print(
          `serve RSS after ${ROUNDS} asked+answered (as a program)  ${mb(after)} after ${IDLE_MS / 1000} s idle, ${mb(settled)} after ${(IDLE_MS + SETTLE_MS) / 1000} s`,
        );
        print(
          `  from idle as started  ${mb(idle)} | growth ${growth(after, idle)}, settled ${growth(settled, idle)}`,
        );
        print(
          `  from idle after ${WARM_ROUNDS} warm-up questions ${mb(warm)} | growth ${growth(after, warm)}, settled ${growth(settled, warm)}`,
        );
      }
      await service.stop();
      rmSync(boxDir, { recursive: true, force: true });
    }
  } finally {
    installed.remove();
    await emulator.stop();
  }
}
