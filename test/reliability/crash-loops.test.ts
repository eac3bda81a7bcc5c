// Story: answers are killed again and again while their git is inside `git commit`, the way a
// crashing host, the OOM killer or a supervisor's SIGKILL stops them: the answering process
// alone (its git runs on), the process together with its git (a process group), and the whole
// `qbridge serve` group answering through the API. Every kill lands in a known window: git
// holding the index's lock (the index write) or HEAD's and the branch's (the ref update),
// held there by a hook until the kill; a soak round adds kills at a random moment. Afterwards,
// with no operator step (no doctor, no rm), every question still pending is answerable, every
// answered one has its job, no git lock file is left and doctor finds the box healthy.
//
// `npm test` runs one kill in each window per loop kind; `npm run soak` runs the acceptance:
// five loops (the answer alone, twice as a group, twice the serve group) of 30 kills each.

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { askQuestion } from "../../src/questions/ask.ts";
import {
  boxHookPath,
  CLI,
  cleanupBoxes,
  cliEnv,
  doctorFindings,
  gitStatus,
  makeBox,
  questionRel,
  readBoxFile,
  runCli,
  selectCard,
  T0,
  type TestBox,
} from "../support/box.ts";
import { eventually, loggedWebPort } from "../support/child.ts";
import {
  ageLocks,
  diskJobs,
  gitLocks,
  headFile,
  printFigures,
  waitUntilLocksStale,
} from "./invariants.ts";
import { SOAK } from "./soak.ts";

type Kind = "answer alone" | "answer and its git" | "serve group";
type Window = "index" | "ref" | "random";

const STALE_MS = 5000;
const API_TOKEN = "crash-loop-token-0123456789";
/** The soak's acceptance: 30 kills per loop, five loops over the three kinds. */
const LOOPS: Kind[] =
  SOAK > 1
    ? ["answer alone", "answer and its git", "answer and its git", "serve group", "serve group"]
    : ["answer alone", "answer and its git", "serve group"];
const KILLS = SOAK > 1 ? 30 : 2;
const WINDOWS: Window[] = SOAK > 1 ? ["index", "ref", "random"] : ["index", "ref"];

const figures = {
  loops: 0,
  kills: 0,
  atIndexWrite: 0,
  atRefUpdate: 0,
  atRandom: 0,
  refLocksLeft: 0,
  answeredAfter: 0,
};
afterAll(() => {
  printFigures("crash loops", figures);
  cleanupBoxes();
});

/**
 * Hooks that hold git in a window while `.git/qb-hold` names it: pre-commit runs while git
 * holds index.lock; reference-transaction's "prepared" state runs while it holds HEAD.lock and
 * the branch's lock. `.git/qb-held` tells the test git is there; removing qb-hold lets it go.
 */
function installHooks(dir: string): void {
  const git = join(dir, ".git");
  const hook = (window: Window, condition: string) =>
    [
      "#!/bin/sh",
      `if ${condition} [ "$(cat '${git}/qb-hold' 2>/dev/null)" = ${window} ]; then`,
      `  touch '${git}/qb-held'`,
      `  while [ -f '${git}/qb-hold' ]; do sleep 0.05; done`,
      "fi",
      "exit 0",
      "",
    ].join("\n");
  writeFileSync(boxHookPath(dir, "pre-commit"), hook("index", ""), { mode: 0o755 });
  writeFileSync(boxHookPath(dir, "reference-transaction"), hook("ref", '[ "$1" = prepared ] &&'), {
    mode: 0o755,
  });
}

function start(args: string[], env: Record<string, string>, stdout = false): ChildProcess {
  // Its own process group, so a group kill takes its git (and git's hook) with it.
  return spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, QBRIDGE_TIME: T0, ...env },
    detached: true,
    stdio: ["ignore", stdout ? "pipe" : "ignore", "ignore"],
  });
}

function ended(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

/** Starts one answer of `id` the way `kind` answers, and returns what the kill stops. */
async function startAnswer(tb: TestBox, kind: Kind, id: string): Promise<ChildProcess> {
  const env = cliEnv(tb.dir);
  if (kind !== "serve group") return start(["answer", id, "b"], env);
  // The web page on any free port, read from the line serve logs as it begins to listen.
  const service = start(
    ["serve"],
    { ...env, QBRIDGE_WEB_PORT: "0", QBRIDGE_API_TOKEN: API_TOKEN, QBRIDGE_LOG_LEVEL: "info" },
    true,
  );
  let out = "";
  service.stdout?.on("data", (chunk) => {
    out += chunk;
  });
  const port = await eventually(() => loggedWebPort(out), 30_000, "qbridge serve to listen");
  const url = `http://127.0.0.1:${port}`;
  // The health probe answers once the web page is up (it may wait for the dead writer's lock).
  await eventually(
    () =>
      fetch(`${url}/healthz`).then(
        (r) => r.status > 0 || undefined,
        () => undefined,
      ),
    30_000,
    "qbridge serve to listen",
  );
  void fetch(`${url}/api/v1/questions/${id}/answer`, {
    method: "POST",
    headers: { Authorization: `Bearer ${API_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ answer: "b" }),
  }).catch(() => undefined);
  return service;
}

/** One kill of an answer of `id`, in `window`. */
async function killOnce(tb: TestBox, kind: Kind, id: string, window: Window): Promise<void> {
  const hold = join(tb.dir, ".git/qb-hold");
  const held = join(tb.dir, ".git/qb-held");
  if (window !== "random") writeFileSync(hold, window);
  const child = await startAnswer(tb, kind, id);
  if (window === "random") {
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 1500)));
  } else {
    await eventually(() => existsSync(held) || undefined, 60_000, `git to reach the ${window}`);
  }
  const pid = child.pid as number;
  if (kind === "answer alone") process.kill(pid, "SIGKILL");
  else process.kill(-pid, "SIGKILL");
  await ended(child);
  figures.kills++;
  if (window === "index") figures.atIndexWrite++;
  if (window === "ref") figures.atRefUpdate++;
  if (window === "random") figures.atRandom++;
  if (gitLocks(tb.dir).some((n) => n === "HEAD.lock" || n.startsWith("refs/"))) {
    figures.refLocksLeft++;
  }
  // Lets an orphaned git (the answer killed alone) go on, as it would with no hook.
  rmSync(hold, { force: true });
  rmSync(held, { force: true });
  await settle(tb.dir, kind, window);
}

/**
 * Lets the dead answer's locks go stale before the next answer. Held in a window, its git holds
 * a git lock until it ends: once an orphaned git (the answer killed alone) has let go, or at
 * once after a group kill (its git died too), the locks are aged as if the kill were long ago,
 * and the next answer takes them over without waiting. After a kill at a random moment a git
 * may not hold a lock yet, so the test waits out the stale time.
 */
async function settle(dir: string, kind: Kind, window: Window): Promise<void> {
  if (window === "random") return waitUntilLocksStale(dir, STALE_MS);
  if (kind === "answer alone") {
    await eventually(() => gitLocks(dir).length === 0 || undefined, 30_000, "the orphaned git");
  }
  ageLocks(dir);
}

describe.concurrent("answers killed again and again inside git commit", () => {
  it.each(LOOPS.map((kind, loop) => [kind, loop] as const))(
    "%s (loop %i): every pending question stays answerable with no operator step",
    async (kind) => {
      const tb = await makeBox({ staleMs: STALE_MS });
      installHooks(tb.dir);
      const ids: string[] = [];
      for (let i = 0; i <= KILLS; i++) {
        ids.push((await askQuestion(tb, selectCard({ prompt: `Which folder, ${i}?` }))).id);
      }
      for (let i = 0; i < KILLS; i++) {
        await killOnce(tb, kind, ids[i] as string, WINDOWS[i % WINDOWS.length] as Window);
      }
      rmSync(boxHookPath(tb.dir, "pre-commit"));
      rmSync(boxHookPath(tb.dir, "reference-transaction"));

      // No doctor, no rm: each answer takes over what the dead ones left. A card whose commit
      // landed (the orphaned git of an answer killed alone finished it) refuses a second answer.
      for (const id of ids) {
        const committed = await headFile(tb.dir, questionRel(id));
        const again = await runCli(["answer", id, "b"], { env: cliEnv(tb.dir) });
        if (committed?.includes("status: answered")) {
          expect(again.code).toBe(3);
          expect(again.stderr).toContain("already answered");
        } else {
          expect(again.stderr).toBe("");
          expect(again.code).toBe(0);
          figures.answeredAfter++;
        }
      }
      for (const id of ids) {
        const text = readBoxFile(tb.dir, questionRel(id));
        expect(text).toContain("status: answered");
        expect(await headFile(tb.dir, questionRel(id))).toBe(text);
      }
      expect(diskJobs(tb.dir)).toEqual([...ids].sort());
      expect(gitLocks(tb.dir)).toEqual([]);
      expect(await gitStatus(tb.dir)).toBe("");
      expect(await doctorFindings(tb)).toEqual([]);
      figures.loops++;
    },
  );
});
