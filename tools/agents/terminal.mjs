// A program run on a pseudo-terminal (util-linux `script`), for the agents' interactive screens
// and `qbridge chat`: what it shows is collected, keys are typed into it, and a check can wait
// for a sentence on its screen. Never waits without a bound.

import { spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";

/** A move of the cursor to the right: the screen shows a space there. */
const CURSOR_FORWARD = new RegExp(`${String.fromCharCode(27)}\\[\\d*C`, "g");

/** The screen's text without colours, cursor moves and terminal titles. */
export function plain(text) {
  return stripVTControlCharacters(text.replace(CURSOR_FORWARD, " ")).replace(/\r/g, "\n");
}

function quoted(word) {
  return `'${String(word).replace(/'/g, `'\\''`)}'`;
}

/** Starts `command args` on a terminal in `cwd` with `env`. */
export function onTerminal(command, args, { cwd, env }) {
  const child = spawn("script", ["-qfec", [command, ...args].map(quoted).join(" "), "/dev/null"], {
    cwd,
    env: { TERM: "xterm-256color", COLUMNS: "100", LINES: "40", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let raw = "";
  child.stdout.on("data", (chunk) => {
    raw += chunk;
  });
  child.stderr.on("data", (chunk) => {
    raw += chunk;
  });
  child.stdin.on("error", () => {});
  const exited = new Promise((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? signal)),
  );
  return {
    child,
    exited,
    raw: () => raw,
    screen: () => plain(raw),
    type: (keys) => child.stdin.write(keys),
    /** Resolves once the screen (from `from` on) matches `pattern`; false after `ms`. */
    async waitFor(pattern, ms, from = 0) {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        if (pattern.test(plain(raw.slice(from))) || pattern.test(raw.slice(from))) return true;
        if (child.exitCode !== null || child.signalCode !== null) return false;
        await new Promise((r) => setTimeout(r, 100));
      }
      return false;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
