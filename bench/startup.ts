// Start-up budgets of the commands agents run as processes many times a day, in a box of 1,000
// cards, each beside its floor measured in the same rounds, as a ratio with its budget:
// `--version`, `show` (of a pending question), `wait` (of an answered one) and `list --json`,
// each at most 2.0x `node -e 0`; `ask` (one JSON card on stdin, which includes its durable
// commit) at most 1.6x `node -e 0` plus the bare commit: one card written with fsync, `git add`
// and `git commit` with git's fsync, in the same box. Budgets are checked, not tuned past: a
// figure over its budget is reported by how much (bench/README.md).
// The command runs as installed and started as a program (installed.ts). Every process runs
// without the settings that make each node start slower whatever it runs (nodeStartEnv:
// NODE_EXTRA_CA_CERTS, NODE_OPTIONS); when this environment has one, `node -e 0` is also timed
// with it, to show what it adds.

import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { writeAtomic } from "../src/box/atomic.ts";
import { DURABLE_GIT } from "../src/box/commit.ts";
import { QUESTIONS_DIR } from "../src/box/paths.ts";
import { bareGit, boxCards, buildBox, nodeStartEnv, nodeStartWorkSet } from "./fixture.ts";
import { installQbridge } from "./installed.ts";
import { budgetRow, row, timeIt } from "./stats.ts";

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 15);
const CARDS = boxCards(1_000);

/** Waits for the file system's pending writes (`sync`); where there is no sync, goes on. */
function settleDisk(): void {
  try {
    execFileSync("sync");
  } catch {
    // no sync command here: the figures may meet a busier disk, nothing worse
  }
}

const card = (i: number) =>
  JSON.stringify({
    id: `startup-${i}`,
    prompt: `Keep log file ${i}?`,
    memo: "The disk is 90% full.",
    input: { type: "confirm" },
    directive: "Delete it or keep it.",
  });

export async function benchStartUp(): Promise<string[]> {
  process.stderr.write(`start-up: a box of ${CARDS} cards…\n`);
  const { core, dir: box, pendingIds } = await buildBox(CARDS, 1);
  core.ledger.close();
  const installed = installQbridge();
  const env = installed.env(nodeStartEnv());
  const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: box, env });
  const qbridge = (args: string[], input?: string) =>
    execFileSync(installed.command, [...args, "--box", box], { input, cwd: box, env });
  const inheritedWork = nodeStartWorkSet();
  try {
    // The commit alone, as bare git does it: the card written and flushed, added, committed.
    const git = bareGit(box);
    const commitFloor = (i: number) => {
      const rel = join(QUESTIONS_DIR, `floor-${i}.question.card`);
      writeAtomic(join(box, rel), card(i));
      git(...DURABLE_GIT, "add", "--", rel);
      git(...DURABLE_GIT, "commit", "-q", "-m", "floor", "--", rel);
    };
    const pending = pendingIds[0] as string;
    qbridge(["ask", "--json"], card(RUNS));
    qbridge(["answer", `startup-${RUNS}`, "yes"]);
    // The first list brings the card index up to the box; the timed ones find it current.
    qbridge(["list", "--json"]);
    // buildBox's commit of 1,000 cards and the ask above: the disk writes that back for a
    // while, and the fsyncs of the commits timed here would wait behind it.
    settleDisk();
    // Interleaved, one of each per round: a shared machine's load changes over a run, and
    // every figure must meet the same load as its floor.
    const figures = {
      bare: [] as number[],
      version: [] as number[],
      show: [] as number[],
      wait: [] as number[],
      list: [] as number[],
      ask: [] as number[],
      commit: [] as number[],
      inherited: [] as number[],
    };
    for (let i = 0; i < RUNS; i++) {
      figures.bare.push(await timeIt(() => node(["-e", "0"])));
      if (inheritedWork.length > 0) {
        figures.inherited.push(
          await timeIt(() => execFileSync(process.execPath, ["-e", "0"], { cwd: box })),
        );
      }
      figures.version.push(
        await timeIt(() => execFileSync(installed.command, ["--version"], { cwd: box, env })),
      );
      figures.show.push(await timeIt(() => qbridge(["show", pending, "--json"])));
      figures.wait.push(await timeIt(() => qbridge(["wait", `startup-${RUNS}`, "--json"])));
      figures.list.push(await timeIt(() => qbridge(["list", "--json"])));
      figures.ask.push(await timeIt(() => qbridge(["ask", "--json"], card(i))));
      figures.commit.push(await timeIt(() => commitFloor(i)));
    }
    const { bare, version, show, wait, list, ask, commit, inherited } = figures;
    const startAndCommit = bare.map((ms, i) => ms + (commit[i] ?? 0));
    return [
      `start-up budgets @${CARDS} cards, ${RUNS} rounds, node ${process.version}:`,
      budgetRow("qbridge --version", version, "node -e 0", bare, 2.0),
      budgetRow("qbridge show ID (pending)", show, "node -e 0", bare, 2.0),
      budgetRow("qbridge wait ID (answered)", wait, "node -e 0", bare, 2.0),
      budgetRow("qbridge list --json", list, "node -e 0", bare, 2.0),
      budgetRow(
        "qbridge ask (JSON on stdin)",
        ask,
        "node -e 0 + bare git commit",
        startAndCommit,
        1.6,
      ),
      row("  its bare git commit alone", commit, "node -e 0", bare),
      ...(inheritedWork.length > 0
        ? [
            row(`node -e 0 with ${inheritedWork.join(", ")}`, inherited, "node -e 0", bare),
            `  (set in this environment; the start-up figures above run without: bench/fixture.ts nodeStartEnv)`,
          ]
        : []),
    ];
  } finally {
    installed.remove();
    rmSync(box, { recursive: true, force: true });
  }
}
