// `qbridge serve` as a child process for the reliability suite: unlike the harness's
// spawnServe, it tells how the process ended (an exit code or the signal that killed it) while
// the test is still running, so a test can assert the service never exited.

import { spawn } from "node:child_process";
import { CLI } from "../support/box.ts";

export interface Service {
  /** The signal or exit code once the process ended, else undefined. */
  exited(): string | undefined;
  stderr(): string;
  stop(signal: NodeJS.Signals): Promise<string>;
}

/** `qbridge serve` as a child process whose end (a code or a signal) can be read. */
export function serve(env: Record<string, string>, cwd: string): Service {
  const child = spawn(process.execPath, [CLI, "serve"], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? cwd, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  let end: string | undefined;
  child.stderr.on("data", (d) => {
    err += d;
  });
  const ended = new Promise<string>((resolve) =>
    child.on("exit", (code, signal) => {
      end = signal ?? String(code);
      resolve(end);
    }),
  );
  return {
    exited: () => end,
    stderr: () => err,
    async stop(signal) {
      if (end === undefined) child.kill(signal);
      return ended;
    },
  };
}
