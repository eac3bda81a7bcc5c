// `npm run bench`: each figure beside its floor measured in the same run, as a ratio.
// (a) the answer transition vs a bare `git add` + `git commit` of the same two files, flushed
//     to the disk (files fsynced, git's core.fsync) and, beside it, the same without fsync;
// (b) listing pending questions vs reading every card file raw;
// then the start-up budgets (startup.ts: the short commands vs `node -e 0`), the answer memory
// (similar.ts: the lookup vs a bare FTS5 query, ask with and without it), the Telegram figures
// (telegram.ts), serve's idle memory (memory.ts) and the agent's (agent.ts: MCP ask, tap to a
// waiting agent), the phone end to end (phone.ts: filed to phone against a real serve on the
// emulator) and the permission hook (hook.ts: hook start to the phone, tap to the printed
// decision; grant.ts: a request a session grant covers, start to decision, vs `node -e 0`;
// ask-user-question.ts: an AskUserQuestion answered by one tap, to the decision printed), and the
// e-mail bridge (email.ts: filed to SMTP, reply to recorded, on Dovecot).
// BENCH_ONLY names the parts to run (e.g. BENCH_ONLY=startup, or BENCH_ONLY=startup,memory):
// sizes, startup, similar, telegram, memory, agent, phone, hook, email.

import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeAtomic } from "../src/box/atomic.ts";
import { openBox } from "../src/box/box.ts";
import { createClock } from "../src/box/clock.ts";
import { DURABLE_GIT } from "../src/box/commit.ts";
import { JOBS_DIR, QUESTIONS_DIR } from "../src/box/paths.ts";
import { answerQuestion } from "../src/questions/answer.ts";
import { pendingQuestions } from "../src/questions/state.ts";
import { benchAskUserQuestion } from "./ask-user-question.ts";
import { benchEmail } from "./email.ts";
import { bareGit, buildBox, NOW, nodeStartEnv } from "./fixture.ts";
import { benchGrant } from "./grant.ts";
import { benchHook } from "./hook.ts";
import { installQbridge } from "./installed.ts";
import { benchMemory } from "./memory.ts";
import { benchPhone } from "./phone.ts";
import { benchSimilar } from "./similar.ts";
import { benchStartUp } from "./startup.ts";
import { quantile, row, sample, timeIt } from "./stats.ts";
import { type Spans, spanLines, timedSteps } from "./steps.ts";

const SIZES = (process.env.BENCH_SIZES ?? "10,1000,10000").split(",").map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 25);
const PARTS = [
  "sizes",
  "startup",
  "similar",
  "telegram",
  "memory",
  "agent",
  "phone",
  "hook",
  "email",
] as const;
const ONLY = process.env.BENCH_ONLY?.split(",") ?? [...PARTS];
const runs = (part: (typeof PARTS)[number]) =>
  ONLY.includes(part) && (part !== "memory" || process.env.BENCH_MEMORY !== "0");

/** The floor for listing: the same walk of the questions folder, and every card read raw. */
function readAllRaw(dir: string): number {
  let bytes = 0;
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".question.card")) bytes += readFileSync(path).length;
    }
  };
  walk(join(dir, QUESTIONS_DIR));
  return bytes;
}

async function benchSize(count: number): Promise<void> {
  process.stderr.write(`building a box of ${count} cards…\n`);
  const { core, dir, pendingIds } = await buildBox(count, 2);
  const git = bareGit(dir);

  // (a) One question answered by the transition, another by bare git; after each run both
  // are put back to pending (untimed), so the box keeps its size and both see the same repo.
  const [id, floorId] = pendingIds as [string, string];
  const rels = (q: string) => ({
    card: join(QUESTIONS_DIR, `${q}.question.card`),
    job: join(JOBS_DIR, `${q}.question-followup.job.card`),
  });
  const original = (q: string) => readFileSync(join(dir, rels(q).card), "utf8");
  const texts = { [id]: original(id), [floorId]: original(floorId) };
  const reset = () => {
    for (const q of [id, floorId]) writeFileSync(join(dir, rels(q).card), texts[q] as string);
    git("commit", "-q", "-m", "reset", "--", rels(id).card, rels(floorId).card);
  };
  await answerQuestion(core, id, { text: "a" }, { via: "bench" });
  reset();
  // The same transition without flushing to the disk (the box as it was before durability),
  // and the floors: bare git with the same git fsync settings, and with git's defaults.
  const volatile = {
    box: openBox(dir, { clock: createClock(NOW), durable: false }),
    ledger: core.ledger,
  };
  const bare = (durable: boolean) => () => {
    const { card, job } = rels(floorId);
    const cardText = texts[floorId] as string;
    const flags = durable ? DURABLE_GIT : [];
    const write = durable ? writeAtomic : (path: string, text: string) => writeFileSync(path, text);
    write(join(dir, job), cardText);
    write(join(dir, card), cardText.replace("status: pending", "status: answered"));
    git(...flags, "add", "--", job, card);
    git(...flags, "commit", "-q", "-m", "floor", "--", job, card);
  };
  const figures = { durable: [] as number[], volatile: [] as number[] };
  const floors = { durable: [] as number[], volatile: [] as number[] };
  // The durable transition step by step, and the durable floor's own three steps.
  const spans: Spans[] = [];
  const floorSteps = {
    "writes+fsync": [] as number[],
    "git add": [] as number[],
    "git commit": [] as number[],
  };
  const bareSteps = () => {
    const { card, job } = rels(floorId);
    const cardText = texts[floorId] as string;
    const took = (fn: () => unknown) => {
      const start = performance.now();
      fn();
      return performance.now() - start;
    };
    floorSteps["writes+fsync"].push(
      took(() => {
        writeAtomic(join(dir, job), cardText);
        writeAtomic(join(dir, card), cardText.replace("status: pending", "status: answered"));
      }),
    );
    floorSteps["git add"].push(took(() => git(...DURABLE_GIT, "add", "--", job, card)));
    floorSteps["git commit"].push(
      took(() => git(...DURABLE_GIT, "commit", "-q", "-m", "floor", "--", job, card)),
    );
  };
  for (let i = 0; i < RUNS; i++) {
    for (const kind of ["durable", "volatile"] as const) {
      const on = kind === "durable" ? core : volatile;
      if (kind === "durable") {
        const steps = await timedSteps(() =>
          answerQuestion(on, id, { text: "b" }, { via: "bench" }),
        );
        spans.push(steps);
        figures.durable.push(Object.values(steps).reduce((a, b) => a + b, 0));
        floors.durable.push(await timeIt(bareSteps));
      } else {
        figures[kind].push(
          ...(await sample(1, () => answerQuestion(on, id, { text: "b" }, { via: "bench" }))),
        );
        floors[kind].push(...(await sample(1, bare(false))));
      }
      reset();
    }
  }
  console.log(
    row(`answer transition @${count}`, figures.durable, "bare git, fsync", floors.durable),
  );
  console.log(
    row(`  same, no fsync @${count}`, figures.volatile, "bare git, no fsync", floors.volatile),
  );
  for (const line of spanLines(`answer transition @${count}, fsync, by step`, spans)) {
    console.log(line);
  }
  console.log(
    `  bare git floor @${count}, fsync, by step: ${Object.entries(floorSteps)
      .map(([name, runs]) => `${name} ${quantile(runs, 0.5).toFixed(1)} ms`)
      .join(", ")}`,
  );

  // (b) The index is built on the first list; later lists only stat the files.
  pendingQuestions(core);
  const list = await sample(RUNS, () => pendingQuestions(core));
  const raw = await sample(RUNS, () => readAllRaw(dir));
  console.log(row(`list pending @${count} (in process)`, list, "read every card raw", raw));

  // Interleaved, one of each per round, so both meet the same load; both without the settings
  // that slow every node start (nodeStartEnv). Seven rounds, or BENCH_RUNS when that is fewer.
  const installed = installQbridge();
  const env = installed.env(nodeStartEnv());
  const cliList: number[] = [];
  const rawProcess: number[] = [];
  for (let i = 0; i < Math.min(7, RUNS); i++) {
    cliList.push(
      await timeIt(() =>
        execFileSync(installed.command, ["list", "--json", "--box", dir], { env }),
      ),
    );
    rawProcess.push(
      await timeIt(() =>
        execFileSync(
          process.execPath,
          [
            "-e",
            `const fs=require("fs");let n=0;const w=(d)=>{for(const e of fs.readdirSync(d,{withFileTypes:true})){const p=d+"/"+e.name;if(e.isDirectory())w(p);else if(e.name.endsWith(".question.card"))n+=fs.readFileSync(p).length;}};w(${JSON.stringify(join(dir, QUESTIONS_DIR))});`,
          ],
          { env },
        ),
      ),
    );
  }
  console.log(row(`qbridge list --json @${count}`, cliList, "node reading every card", rawProcess));
  installed.remove();

  core.ledger.close();
  rmSync(dir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  console.log(`question-bridge bench: ${RUNS} runs per figure, node ${process.version}\n`);
  if (runs("sizes")) for (const size of SIZES) await benchSize(size);
  if (runs("startup")) for (const line of await benchStartUp()) console.log(line);
  if (runs("similar")) for (const line of await benchSimilar()) console.log(line);
  const telegram = join(import.meta.dirname, "telegram.ts");
  if (runs("telegram") && existsSync(telegram)) {
    const { benchTapLatency } = (await import(telegram)) as {
      benchTapLatency: () => Promise<string[]>;
    };
    for (const line of await benchTapLatency()) console.log(line);
  }
  if (runs("memory")) await benchMemory((line) => console.log(line));
  const agent = join(import.meta.dirname, "agent.ts");
  if (runs("agent") && existsSync(agent)) {
    const { benchAgent } = (await import(agent)) as { benchAgent: () => Promise<string[]> };
    for (const line of await benchAgent()) console.log(line);
  }
  if (runs("phone")) for (const line of await benchPhone()) console.log(line);
  if (runs("hook")) for (const line of await benchHook()) console.log(line);
  if (runs("hook")) for (const line of await benchGrant()) console.log(line);
  if (runs("hook")) for (const line of await benchAskUserQuestion()) console.log(line);
  if (runs("email")) for (const line of await benchEmail()) console.log(line);
}

await main();
