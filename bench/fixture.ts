// Builds benchmark boxes: N question cards (1% pending, the rest answered) in one commit.

import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { initBox, openBox } from "../src/box/box.ts";
import { createClock } from "../src/box/clock.ts";
import { NO_AUTO_MAINTENANCE } from "../src/box/commit.ts";
import { QUESTION_SUFFIX, QUESTIONS_DIR } from "../src/box/paths.ts";
import { serializeCard } from "../src/card/codec.ts";
import { Ledger } from "../src/ledger/ledger.ts";
import type { Core } from "../src/questions/core.ts";

export const NOW = "2026-07-10T09:00:00Z";

function cardFields(i: number, pending: boolean): Record<string, unknown> {
  const asked = new Date(Date.parse(NOW) - (i % 20) * 3_600_000).toISOString().slice(0, 19);
  const base: Record<string, unknown> = {
    status: pending ? "pending" : "answered",
    prompt: `Where should receipt ${i} go?`,
    memo: `Receipt ${i} arrived at intake and no rule says where receipts go. `.repeat(3),
    input: {
      type: "select",
      options: [
        { id: "finance", label: "Finance" },
        { id: "taxes", label: "Taxes" },
        { id: "_other", label: "Somewhere else" },
      ],
    },
    learning: { sink: "guide", proposal: "Receipts go in finance/receipts/." },
    directive: `Move receipt ${i} into the chosen folder.`,
    priority: ["high", "medium", "low"][i % 3],
    "asked-at": `${asked}Z`,
  };
  if (!pending) {
    base.answer = { text: "Finance", selected: "finance" };
    base["answered-at"] = NOW;
    base["answered-via"] = "cli";
  }
  return base;
}

export interface BenchBox {
  core: Core;
  dir: string;
  pendingIds: string[];
}

/**
 * Bare git in `dir`, as the bench's floors run it: a fixed identity, and no automatic gc (with
 * thousands of loose objects git would start one in the background after a commit, and it
 * would run through the figures measured next; the product's own commits never start one).
 */
export function bareGit(dir: string): (...args: string[]) => Buffer {
  return (...args) =>
    execFileSync(
      "git",
      [
        "-C",
        dir,
        "-c",
        "user.name=bench",
        "-c",
        "user.email=bench@localhost",
        ...NO_AUTO_MAINTENANCE,
        ...args,
      ],
      { stdio: "pipe" },
    );
}

/**
 * Settings that make every node process do work before its script runs, whatever the script.
 * NODE_EXTRA_CA_CERTS has node read and parse a certificate bundle at start (35 ms of the 63 ms
 * `node -e 0` took on the bench machine, where it is set for the whole system); NODE_OPTIONS can
 * preload anything. Kept, they add the same time to a command and to its `node -e 0` floor, and
 * every start-up ratio reads better than the command is.
 */
const NODE_START_WORK = ["NODE_EXTRA_CA_CERTS", "NODE_OPTIONS"] as const;

/** The environment the start-up figures run in: this one without NODE_START_WORK. */
export function nodeStartEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of NODE_START_WORK) delete env[name];
  return env;
}

/** The settings nodeStartEnv leaves out that this environment has. */
export function nodeStartWorkSet(): string[] {
  return NODE_START_WORK.filter((name) => process.env[name] !== undefined);
}

/**
 * The cards of a part's big box: its own size (1,000 or 10,000), or BENCH_CARDS for all of them
 * (the bench test runs every part at a tiny size).
 */
export function boxCards(own: number): number {
  return Number(process.env.BENCH_CARDS ?? own);
}

/** A box with `count` cards, every hundredth pending (at least `minPending`). */
export async function buildBox(count: number, minPending: number): Promise<BenchBox> {
  const dir = mkdtempSync(join(tmpdir(), `qbridge-bench-${count}-`));
  await initBox(dir);
  const pendingIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const pending = i % 100 === 0 || i < minPending;
    const id = `q-${String(i).padStart(6, "0")}`;
    if (pending) pendingIds.push(id);
    writeFileSync(
      join(dir, QUESTIONS_DIR, `${id}${QUESTION_SUFFIX}`),
      serializeCard(cardFields(i, pending)),
    );
  }
  const git = bareGit(dir);
  git("add", "-A");
  git("commit", "-qm", `${count} cards`);
  const box = openBox(dir, { clock: createClock(NOW) });
  return { core: { box, ledger: new Ledger(box.paths.ledgerPath) }, dir, pendingIds };
}
