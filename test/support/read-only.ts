// `qbridge` over a box bind-mounted read-only, in a user and mount namespace of its own: a real
// read-only file system that stops root too, and needs no privilege (chmod does not stop root,
// and mount needs it).

import { spawn } from "node:child_process";
import { CLI, type CliResult, childResult, ROOT } from "./box.ts";
import { type Child, watched } from "./child.ts";

function spawnOnReadOnlyBox(dir: string, args: string[], env: NodeJS.ProcessEnv) {
  const script =
    'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" && shift && exec "$@"';
  // unshare and sh both exec: the child is qbridge itself, so a signal to it reaches qbridge.
  return spawn(
    "unshare",
    [
      "--user",
      "--map-root-user",
      "--mount",
      "sh",
      "-c",
      script,
      "sh",
      dir,
      process.execPath,
      CLI,
      ...args,
    ],
    { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] },
  );
}

/** Runs `qbridge ARGS` with `dir` read-only for it alone; `env` is the whole environment. */
export function runOnReadOnlyBox(
  dir: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; input?: string },
): Promise<CliResult> {
  return childResult(spawnOnReadOnlyBox(dir, args, options.env), options.input ?? "");
}

/** Starts a lasting `qbridge ARGS` (web, serve) with `dir` read-only for it alone. */
export function startOnReadOnlyBox(dir: string, args: string[], env: NodeJS.ProcessEnv): Child {
  return watched(spawnOnReadOnlyBox(dir, args, env));
}
