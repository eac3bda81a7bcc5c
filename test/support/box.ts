// One place that builds what tests stand on: a temporary box with real git, its ledger, a
// frozen clock, sample cards, and the qbridge command run as a real child process.

import { type ChildProcess, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { initBox, openBox } from "../../src/box/box.ts";
import { createClock } from "../../src/box/clock.ts";
import { GIT_HOOKS_DIR } from "../../src/box/paths.ts";
import { serializeCard } from "../../src/card/codec.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import type { Core } from "../../src/questions/core.ts";
import { examineBox, type Finding, repairBox } from "../../src/questions/doctor/doctor.ts";
import { oweWebhooks } from "../../src/webhooks/owe.ts";
import { crashFlags } from "./crash-point.ts";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const CLI = join(ROOT, "bin/qbridge.cjs");
export const T0 = "2026-07-10T09:00:00Z";

export interface TestBox extends Core {
  dir: string;
  cleanup(): void;
}

const made: TestBox[] = [];

/**
 * The box initBox lays out (git repository, folders, .gitignore, first commit), made once per
 * test file and copied into each new box: the same files and history a fresh init makes,
 * without running git for every box. The setup file removes it after the file
 * (removeBoxLayout).
 */
let layout: { dir: string; made: Promise<unknown> } | undefined;
async function boxLayout(): Promise<string> {
  if (layout === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "qbridge-layout-"));
    layout = { dir, made: initBox(dir) };
  }
  await layout.made;
  return layout.dir;
}

/** Removes the layout makeBox copies, once its test file is done. */
export async function removeBoxLayout(): Promise<void> {
  const made = layout;
  layout = undefined;
  if (made === undefined) return;
  await made.made.catch(() => undefined);
  rmSync(made.dir, { recursive: true, force: true });
}

interface BoxOptions {
  time?: string;
  staleMs?: number;
}

export async function makeBox(options: BoxOptions = {}): Promise<TestBox> {
  const dir = mkdtempSync(join(tmpdir(), "qbridge-test-"));
  cpSync(await boxLayout(), dir, { recursive: true });
  return openTestBox(dir, options);
}

/** A box built once by `build`, its ledger closed so that `copyBox` can copy it whole. */
export async function prepareBox(
  build: (tb: TestBox) => Promise<void>,
  options: BoxOptions = {},
): Promise<string> {
  const tb = await makeBox(options);
  await build(tb);
  tb.ledger.close();
  return tb.dir;
}

/**
 * A box of its own holding what a prepared box holds (its history, cards and ledger): for a
 * test that needs many boxes alike, a copy stands in for building each one again.
 */
export function copyBox(prepared: string, options: BoxOptions = {}): TestBox {
  const dir = mkdtempSync(join(tmpdir(), "qbridge-test-"));
  cpSync(prepared, dir, { recursive: true });
  return openTestBox(dir, options);
}

function openTestBox(dir: string, options: BoxOptions): TestBox {
  const box = openBox(dir, {
    clock: createClock(options.time ?? T0),
    locks: { staleMs: options.staleMs ?? 10_000 },
  });
  const ledger = new Ledger(box.paths.ledgerPath);
  const testBox: TestBox = {
    dir,
    box,
    ledger,
    // As the composition root wires it: every transition owes the answer webhooks.
    owe: oweWebhooks,
    cleanup() {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  made.push(testBox);
  return testBox;
}

const scratch: string[] = [];

/**
 * A folder of its own outside every box (a home, a project, what a link points to), removed
 * with the boxes by cleanupBoxes: nothing a test makes may outlive its file.
 */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

export function cleanupBoxes(): void {
  for (const b of made.splice(0)) b.cleanup();
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function selectCard(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    memo: "A receipt came in at intake and no rule says where receipts go.",
    prompt: "Where do photographed receipts belong?",
    input: {
      type: "select",
      options: [
        { id: "finance", label: "Finance" },
        { id: "taxes", label: "Taxes" },
        { id: "_other", label: "Somewhere else" },
      ],
    },
    learning: {
      sink: "guide",
      ref: "/_config/finance.guide.card",
      proposal: "Receipts go in finance/receipts/.",
    },
    directive: "Move the held receipt into the chosen folder.",
    ...overrides,
  };
}

export function confirmCard(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    memo: "The nightly backup has failed three times.",
    prompt: "May I delete backups older than a year?",
    input: { type: "confirm" },
    directive: "Delete backups older than a year if allowed.",
    ...overrides,
  };
}

export function textCard(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    memo: "A new contact appeared without a name.",
    prompt: "What is the name of the person at +41 79 000 00 00?",
    input: { type: "text" },
    directive: "Add the name to the contact card.",
    ...overrides,
  };
}

export function multiselectCard(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    memo: "The pull request changes the build; each check costs a few minutes of CI.",
    prompt: "Which checks should run on this pull request?",
    input: {
      type: "multiselect",
      options: [
        { id: "unit", label: "Unit tests" },
        { id: "lint", label: "Lint" },
        { id: "types", label: "Type check" },
      ],
    },
    directive: "Run the chosen checks and report back.",
    ...overrides,
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * What `qbridge doctor` finds in the box, run in this process (its command is tested in
 * test/ship/); with `repair`, what `doctor --repair` leaves: each finding it repaired marked.
 */
export async function doctorFindings(tb: TestBox, repair = false): Promise<Finding[]> {
  const findings = await examineBox(tb);
  return repair ? repairBox(tb, findings) : findings;
}

/** Runs `qbridge` as a real child process (armed to crash when env names a crash point). */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; input?: string | Buffer; cwd?: string } = {},
): Promise<CliResult> {
  const env = { ...process.env, QBRIDGE_TIME: T0, ...options.env };
  const child = spawn(process.execPath, [...crashFlags(env), CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  return childResult(child, options.input ?? "");
}

/**
 * What a spawned child printed and how it ended (a signal reads as 128); `input`, when given,
 * is written to its stdin, which is then closed.
 */
export function childResult(child: ChildProcess, input?: string | Buffer): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d) => {
      stdout += d;
    });
    child.stderr?.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolvePromise({ code: code ?? (signal ? 128 : -1), stdout, stderr }),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

export async function gitLog(dir: string, format = "%s"): Promise<string[]> {
  const { simpleGit } = await import("simple-git");
  const out = await simpleGit(dir).raw(["log", `--format=${format}`]);
  return out.split("\n").filter((l) => l !== "");
}

/**
 * Commits `paths` as a hand edit or another clone would, under a test identity: a contributor's
 * machine may have no git name or e-mail configured, and qbridge's own fallback is not used here.
 */
export async function commitByHand(dir: string, paths: string[], message: string): Promise<void> {
  const { simpleGit } = await import("simple-git");
  const git = simpleGit({ baseDir: dir, config: ["user.name=test", "user.email=test@localhost"] });
  await git.add(paths);
  await git.commit(message, paths);
}

/** The same box and ledger seen from another frozen instant (for aging at exact times). */
export function atTime(core: Core, time: string): Core {
  return { box: { ...core.box, clock: createClock(time) }, ledger: core.ledger, owe: core.owe };
}

/** Box-relative path of a question card file. */
export function questionRel(id: string): string {
  return `_bookkeeping/questions/${id}.question.card`;
}

/** Box-relative path of the follow-up job an answer to `id` writes. */
export function jobRel(id: string): string {
  return `_bookkeeping/jobs/${id}.question-followup.job.card`;
}

/** Writes a card file by hand, as an agent or a person would; returns its absolute path. */
export function writeCardFile(dir: string, id: string, text: string): string {
  const path = join(dir, questionRel(id));
  writeFileSync(path, text);
  return path;
}

export function readBoxFile(dir: string, rel: string): string {
  return readFileSync(join(dir, rel), "utf8");
}

export function boxFileExists(dir: string, rel: string): boolean {
  return existsSync(join(dir, rel));
}

/** A pending card's text: the given asker fields, `status: pending` and `asked-at` T0. */
export function pendingCardText(fields: Record<string, unknown>, body = ""): string {
  return serializeCard({ status: "pending", "asked-at": T0, ...fields }, body);
}

/** `git status --porcelain` of the box: empty when nothing is changed, staged or untracked. */
export async function gitStatus(dir: string): Promise<string> {
  const { simpleGit } = await import("simple-git");
  return simpleGit(dir).raw(["status", "--porcelain", "--untracked-files=all"]);
}

/** The full message (subject, body, trailers) of the newest commit. */
export async function lastCommitMessage(dir: string): Promise<string> {
  const { simpleGit } = await import("simple-git");
  return simpleGit(dir).raw(["log", "-1", "--format=%B"]);
}

/** Environment for `runCli` against this box, with a short lock stale time. */
export function cliEnv(dir: string, extra: Record<string, string> = {}): Record<string, string> {
  return { QBRIDGE_BOX: dir, QBRIDGE_LOCK_STALE_MS: "5000", ...extra };
}

/** The trailers of the newest commit as git itself parses them (`Key: value` lines). */
export async function lastCommitTrailers(dir: string): Promise<Record<string, string>> {
  const { simpleGit } = await import("simple-git");
  const out = await simpleGit(dir).raw(["log", "-1", "--format=%(trailers:only,unfold)"]);
  const trailers: Record<string, string> = {};
  for (const line of out.split("\n")) {
    const colon = line.indexOf(": ");
    if (colon > 0) trailers[line.slice(0, colon)] = line.slice(colon + 2);
  }
  return trailers;
}

/**
 * Where a test puts a git hook that the box's own commits run (GIT_HOOKS_DIR: the folder is
 * made), to hold git inside a window or have it refuse.
 */
export function boxHookPath(dir: string, name: string): string {
  const hooks = join(dir, GIT_HOOKS_DIR);
  mkdirSync(hooks, { recursive: true });
  return join(hooks, name);
}
