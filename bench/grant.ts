// A request covered by a session grant, beside `node -e 0` in the same rounds: the built
// `qbridge hook permission` spawned as installed with Claude Code's PermissionRequest fixture on
// stdin, in a box of 1,000 cards whose ledger holds a live grant of that session for that exact
// command, from its start until it prints its decision (no question is filed: the grant allows
// it at once, counted); the floor is `node -e 0` spawned the same way, until it exits. Both run
// without the settings that slow every node start (nodeStartEnv). Bounded: BENCH_HOOK_RUNS
// rounds (default 5) times three.

import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { GrantStore } from "../src/ledger/grants.ts";
import { boxCards, buildBox, NOW, nodeStartEnv } from "./fixture.ts";
import { installQbridge } from "./installed.ts";
import { row } from "./stats.ts";

const RUNS = 3 * Number(process.env.BENCH_HOOK_RUNS ?? 5);
const FIXTURE = join(import.meta.dirname, "../test/hooks/fixtures/claude-permission-bash.json");

/** Milliseconds from the spawn until the child first writes on stdout (or exits). */
function timed(child: ChildProcess, input: string | undefined, until: "output" | "exit") {
  const start = performance.now();
  return new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (data) => {
      out += data;
      if (until === "output") resolve(performance.now() - start);
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) reject(new Error(`exit ${code}: ${out}`));
      else if (until === "exit") resolve(performance.now() - start);
      else if (!out.includes('"behavior":"allow"')) reject(new Error(`it printed: ${out}`));
    });
    child.stdin?.end(input ?? "");
  });
}

export async function benchGrant(): Promise<string[]> {
  const { core, dir } = await buildBox(boxCards(1_000), 1);
  const input = JSON.parse(readFileSync(FIXTURE, "utf8"));
  new GrantStore(core.ledger).add({
    id: "bench1",
    agent: "claude",
    sessionId: input.session_id,
    tool: "Bash",
    pattern: `exact:${input.tool_input.command}`,
    questionId: undefined,
    createdAt: NOW,
    expiresAt: "2099-01-01T00:00:00Z",
  });
  core.ledger.close();
  const installed = installQbridge();
  const env = installed.env({ ...nodeStartEnv(), QBRIDGE_TIME: NOW });
  const text = JSON.stringify(input);
  const hook: number[] = [];
  const floor: number[] = [];
  try {
    // Round -1 warms the disk cache and is not counted.
    for (let i = -1; i < RUNS; i++) {
      const args = ["hook", "permission", "--agent", "claude", "--box", dir];
      const took = await timed(spawn(installed.command, args, { cwd: dir, env }), text, "output");
      const node = await timed(spawn(process.execPath, ["-e", "0"], { env }), undefined, "exit");
      if (i >= 0) {
        hook.push(took);
        floor.push(node);
      }
    }
  } finally {
    installed.remove();
    rmSync(dir, { recursive: true, force: true });
  }
  return [row("granted request: hook start→decision printed", hook, "node -e 0", floor)];
}
