#!/usr/bin/env node
// A recording hook for `npm run agents`: installed in an agent's settings in place of (or beside)
// `qbridge hook`, it writes down what the agent hands a hook (the input, its process parents)
// and what happens to it (signals, a new parent), then prints the decision the scenario scripted
// for that tool. It never decides anything on its own: no script, no output.
//
//   probe-hook.mjs <record-dir> <label>
// The scripted decisions are <record-dir>/decisions.json:
//   {"<label>": {"<tool_name or event name>": {"print": {...} | null, "exitCode": 0, "holdMs": 0,
//     "holdThroughParentChange": false}}}
// Each run appends JSON lines to <record-dir>/<label>-<pid>.jsonl as it goes, so a run killed
// by SIGKILL still leaves what it saw.

import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [dir, label] = process.argv.slice(2);
const log = join(dir, `${label}-${process.pid}.jsonl`);
const started = Date.now();

function note(entry) {
  appendFileSync(
    log,
    `${JSON.stringify({ at: Date.now(), ms: Date.now() - started, ...entry })}\n`,
  );
}

function commandOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    return undefined;
  }
}

function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

function groupOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
  } catch {
    return undefined;
  }
}

/** The chain of parents up to three levels, each with its command line. */
function ancestry() {
  const chain = [];
  let pid = process.ppid;
  for (let i = 0; i < 3 && pid && pid > 1; i++) {
    chain.push({ pid, command: commandOf(pid)?.slice(0, 200) });
    pid = parentOf(pid);
  }
  return chain;
}

let signalled = 0;
for (const name of ["SIGTERM", "SIGINT", "SIGHUP", "SIGPIPE", "SIGQUIT", "SIGUSR1"]) {
  process.on(name, () => {
    signalled += 1;
    note({ signal: name, ppid: process.ppid, pgid: groupOf(process.pid) });
    if (process.env.PROBE_EXIT_ON_SIGNAL === "1") process.exit(0);
  });
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const text = Buffer.concat(chunks).toString("utf8");
let input;
try {
  input = JSON.parse(text);
} catch {
  input = { unparsed: text };
}
note({
  pid: process.pid,
  ppid: process.ppid,
  pgid: groupOf(process.pid),
  ancestry: ancestry(),
  input,
});

const decisionsFile = join(dir, "decisions.json");
const decisions = existsSync(decisionsFile) ? JSON.parse(readFileSync(decisionsFile, "utf8")) : {};
const mine = decisions[label] ?? {};
const scripted =
  mine[input.tool_name ?? input.toolName] ?? mine[input.hook_event_name ?? input.hookName] ?? {};

if (scripted.holdMs) {
  let parent = process.ppid;
  let ticks = 0;
  const first = parent;
  const until = Date.now() + scripted.holdMs;
  await new Promise((resolve) => {
    const tick = setInterval(() => {
      const changed = process.ppid !== parent;
      if (changed) note({ parentChanged: { from: parent, to: process.ppid } });
      parent = process.ppid;
      // A line a second, and each tick once signalled, shows how long the process lived (SIGKILL
      // leaves no line of its own).
      if (signalled || ++ticks % 10 === 0) note({ alive: true });
      if ((changed && !scripted.holdThroughParentChange) || Date.now() >= until) {
        clearInterval(tick);
        resolve();
      }
    }, 100);
  });
  note({ heldUntil: process.ppid === first ? "hold ended" : "parent changed" });
}

if (scripted.print) process.stdout.write(`${JSON.stringify(scripted.print)}\n`);
note({ printed: scripted.print ?? null, exitCode: scripted.exitCode ?? 0 });
process.exit(scripted.exitCode ?? 0);
