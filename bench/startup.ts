// Start-up of the short commands agents run as processes many times a day, each beside
// `node -e 0` measured in the same run: `--version`, `ask` (one JSON card on stdin, which
// includes its git commit), `show` (of a pending question, which reads the ledger for its
// hold; also of the question an ask just filed) and `wait` (of an answered one). `ask` is also put
// beside `node -e 0` plus the bare floor of its commit (one card written with fsync, `git add`
// and `git commit` with git's fsync), so start-up and the commit read apart; `show` also beside
// node parsing the same card with the yaml package, what reading a card costs any node program.
// Every process runs without the settings that make each node start slower whatever it runs
// (nodeStartEnv: NODE_EXTRA_CA_CERTS, NODE_OPTIONS); when this environment has one, `node -e 0`
// is also timed with it, to show what it adds.

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeAtomic } from "../src/box/atomic.ts";
import { DURABLE_GIT } from "../src/box/commit.ts";
import { bareGit, nodeStartEnv, nodeStartWorkSet } from "./fixture.ts";
import { row, timeIt } from "./stats.ts";

// What the package's launcher (bin/qbridge.cjs) runs once installed: dist/qbridge.cjs runs the
// CLI bundle with its code cache. In a clone bin/ first checks that the build is newer than
// every source, which no user pays.
const CLI = join(import.meta.dirname, "../dist/qbridge.cjs");
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 15);

/** Waits for the file system's pending writes (`sync`); where there is no sync, goes on. */
function settleDisk(): void {
  try {
    execFileSync("sync");
  } catch {
    // no sync command here: the figures may meet a busier disk, nothing worse
  }
}

export async function benchStartUp(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "qbridge-bench-startup-"));
  const box = join(dir, "box");
  const env = nodeStartEnv();
  const node = (args: string[], input?: string) =>
    execFileSync(process.execPath, args, { input, cwd: dir, env });
  const qbridge = (args: string[], input?: string) => node([CLI, ...args, "--box", box], input);
  const yamlPackage = createRequire(import.meta.url).resolve("yaml");
  // What any node program pays to read one card: the yaml package loaded, the front matter parsed.
  const parseCard = (i: number) =>
    node([
      "-e",
      `const fs=require("fs");const t=fs.readFileSync(${JSON.stringify(join(box, `_bookkeeping/questions/startup-${i}.question.card`))},"utf8");fs.writeSync(1,JSON.stringify(require(${JSON.stringify(yamlPackage)}).parse(t.slice(4,t.indexOf("\\n---",3)))))`,
    ]);
  const inheritedWork = nodeStartWorkSet();
  try {
    qbridge(["init"]);
    // The bench's earlier steps removed boxes of thousands of cards: the disk writes that back
    // for a while, and the fsyncs of the commits timed here would wait behind it.
    settleDisk();
    const card = (i: number) =>
      JSON.stringify({
        id: `startup-${i}`,
        prompt: `Keep log file ${i}?`,
        memo: "The disk is 90% full.",
        input: { type: "confirm" },
        directive: "Delete it or keep it.",
      });
    // The commit alone, as bare git does it: the card written and flushed, added, committed.
    const git = bareGit(box);
    const commitFloor = (i: number) => {
      const rel = `_bookkeeping/questions/floor-${i}.question.card`;
      writeAtomic(join(box, rel), card(i));
      git(...DURABLE_GIT, "add", "--", rel);
      git(...DURABLE_GIT, "commit", "-q", "-m", "floor", "--", rel);
    };
    qbridge(["ask", "--json"], card(RUNS));
    qbridge(["answer", `startup-${RUNS}`, "yes"]);
    // The question `show` reads, pending (the ledger is read for its hold), asked before the
    // runs as `wait`'s is answered before them: each round's ask writes and flushes a card, a
    // journal, git's objects and the ledger's log, and the process right after it meets that
    // flush on the disk. `show` of the question each ask just filed is timed too.
    qbridge(["ask", "--json"], card(RUNS + 1));
    // Interleaved, one of each per round: a shared machine's load changes over a run, and
    // every figure must meet the same load as its floor.
    const figures = {
      bare: [] as number[],
      version: [] as number[],
      ask: [] as number[],
      show: [] as number[],
      showAfterAsk: [] as number[],
      wait: [] as number[],
      commit: [] as number[],
      parse: [] as number[],
      inherited: [] as number[],
    };
    for (let i = 0; i < RUNS; i++) {
      figures.bare.push(await timeIt(() => node(["-e", "0"])));
      if (inheritedWork.length > 0) {
        figures.inherited.push(
          await timeIt(() => execFileSync(process.execPath, ["-e", "0"], { cwd: dir })),
        );
      }
      figures.version.push(await timeIt(() => node([CLI, "--version"])));
      figures.show.push(await timeIt(() => qbridge(["show", `startup-${RUNS + 1}`, "--json"])));
      figures.wait.push(await timeIt(() => qbridge(["wait", `startup-${RUNS}`, "--json"])));
      figures.ask.push(await timeIt(() => qbridge(["ask", "--json"], card(i))));
      figures.showAfterAsk.push(await timeIt(() => qbridge(["show", `startup-${i}`, "--json"])));
      figures.commit.push(await timeIt(() => commitFloor(i)));
      figures.parse.push(await timeIt(() => parseCard(i)));
    }
    const { bare, version, ask, show, showAfterAsk, wait, commit, parse, inherited } = figures;
    const startAndCommit = bare.map((ms, i) => ms + (commit[i] ?? 0));
    return [
      row("qbridge --version", version, "node -e 0", bare),
      row("qbridge ask (JSON on stdin, commits)", ask, "node -e 0", bare),
      row(
        "qbridge ask (JSON on stdin, commits)",
        ask,
        "node -e 0 + bare git commit",
        startAndCommit,
      ),
      row("  its bare git commit alone", commit, "node -e 0", bare),
      row("qbridge show (pending)", show, "node -e 0", bare),
      row("qbridge show, just after its ask", showAfterAsk, "node -e 0", bare),
      row("qbridge show (pending)", show, "node + yaml parsing the card", parse),
      row("qbridge wait (answered)", wait, "node -e 0", bare),
      ...(inheritedWork.length > 0
        ? [
            row(`node -e 0 with ${inheritedWork.join(", ")}`, inherited, "node -e 0", bare),
            `  (set in this environment; the start-up figures above run without: bench/fixture.ts nodeStartEnv)`,
          ]
        : []),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
