// Start-up of the short commands agents run as processes many times a day, each beside
// `node -e 0` measured in the same run: `--version`, `ask` (one JSON card on stdin, which
// includes its git commit) and `show`.

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { row, sample } from "./stats.ts";

const CLI = join(import.meta.dirname, "../bin/qbridge.mjs");
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 15);

export async function benchStartUp(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "qbridge-bench-startup-"));
  const box = join(dir, "box");
  const qbridge = (args: string[], input?: string) =>
    execFileSync(process.execPath, [CLI, ...args, "--box", box], { input, cwd: dir });
  try {
    qbridge(["init"]);
    const card = (i: number) =>
      JSON.stringify({
        id: `startup-${i}`,
        prompt: `Keep log file ${i}?`,
        memo: "The disk is 90% full.",
        input: { type: "confirm" },
        directive: "Delete it or keep it.",
      });
    const bare = await sample(RUNS, () => execFileSync(process.execPath, ["-e", "0"]));
    const version = await sample(RUNS, () => execFileSync(process.execPath, [CLI, "--version"]));
    const ask = await sample(RUNS, (i) => qbridge(["ask", "--json"], card(i)));
    const show = await sample(RUNS, (i) => qbridge(["show", `startup-${i}`, "--json"]));
    return [
      row("qbridge --version", version, "node -e 0", bare),
      row("qbridge ask (JSON on stdin, commits)", ask, "node -e 0", bare),
      row("qbridge show", show, "node -e 0", bare),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
