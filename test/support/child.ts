// The qbridge command run as a real child process with exactly the environment given (plus
// PATH and HOME), typed to over stdin; and the bounded wait the stories poll with.

import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { CLI } from "./box.ts";
import { crashFlags } from "./crash-point.ts";

/** Polls `check` every 20 ms until it returns a value, at most `ms`; then throws. */
export async function eventually<T>(
  check: () => T | undefined | Promise<T | undefined>,
  ms = 5_000,
  what = "the condition",
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface Child {
  stdout(): string;
  stderr(): string;
  /** Types one line on the child's standard input. */
  type(line: string): void;
  /** Ends standard input (Ctrl-D). */
  endInput(): void;
  /** Waits until stdout (or stderr) contains `text`; throws after `ms`. */
  waitFor(text: string | RegExp, ms?: number, stream?: "stdout" | "stderr"): Promise<void>;
  /** Resolves with the exit code once the child has exited. */
  exited: Promise<number | null>;
  /** How the child ended, its exit code or the signal that killed it; undefined while it runs. */
  ended(): string | undefined;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * The port of the web page a `qbridge serve` started with QBRIDGE_WEB_PORT=0 listens on, from
 * the line it logs as it begins to listen (JSON logs at info level, on stdout). A port chosen
 * before the start and handed to it could be taken meanwhile by any process listening on port 0.
 */
export async function webPortOf(serve: Child, ms = 20_000): Promise<number> {
  await serve.waitFor(LISTENING, ms);
  return loggedWebPort(serve.stdout()) as number;
}

const LISTENING = /"url":"http:\/\/[^"]*:(\d+)"[^\n]*"msg":"web page listening"/;

/** The web page's port in a serve's stdout (see webPortOf); undefined until it is logged. */
export function loggedWebPort(stdout: string): number | undefined {
  const port = LISTENING.exec(stdout)?.[1];
  return port === undefined ? undefined : Number(port);
}

/** Children still running; a test that fails before it stops its child leaves one here. */
const running = new Set<ChildProcessWithoutNullStreams>();

/** SIGKILLs every child a test file left running (its setup file calls this after the file). */
export function killLeftoverChildren(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

/** Runs `qbridge ARGS` with this environment only (plus PATH and HOME); see crash-point.ts. */
export function qbridge(
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Child {
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? options.cwd,
    ...options.env,
  };
  const child = spawn(process.execPath, [...crashFlags(env), CLI, ...args], {
    cwd: options.cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  return watched(child);
}

/** A spawned child as a test drives it (killed after the file if a test leaves it running). */
export function watched(child: ChildProcessWithoutNullStreams): Child {
  running.add(child);
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => {
    out += d;
  });
  child.stderr.on("data", (d) => {
    err += d;
  });
  let end: string | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code, signal) => {
      running.delete(child);
      end = signal ?? String(code);
      resolve(code);
    }),
  );
  const has = (text: string | RegExp, s: string) =>
    typeof text === "string" ? s.includes(text) : text.test(s);
  return {
    stdout: () => out,
    stderr: () => err,
    type(line) {
      child.stdin.write(`${line}\n`);
    },
    endInput() {
      child.stdin.end();
    },
    async waitFor(text, ms = 20_000, stream = "stdout") {
      try {
        await eventually(() => has(text, stream === "stdout" ? out : err) || undefined, ms);
      } catch {
        throw new Error(
          `${stream} never showed ${String(text)}; stdout: ${JSON.stringify(out.slice(-600))}; stderr: ${JSON.stringify(err.slice(-600))}`,
        );
      }
    },
    exited,
    ended: () => end,
    async kill(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs `qbridge ARGS` to the end with this input; returns code, stdout and stderr. */
export async function qbridgeRun(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; input?: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = qbridge(args, options);
  if (options.input !== undefined) child.type(options.input);
  child.endInput();
  const code = await child.exited;
  return { code, stdout: child.stdout(), stderr: child.stderr() };
}
