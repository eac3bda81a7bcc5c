// `qbridge serve` as a child process for the reliability suite: unlike the harness's
// spawnServe, it tells how the process ended (an exit code or the signal that killed it) while
// the test is still running, so a test can assert the service never exited.

import { qbridge } from "../support/child.ts";

export interface Service {
  /** The signal or exit code once the process ended, else undefined. */
  exited(): string | undefined;
  stderr(): string;
  stop(signal: NodeJS.Signals): Promise<string>;
}

/** `qbridge serve` as a child process whose end (a code or a signal) can be read. */
export function serve(env: Record<string, string>, cwd: string): Service {
  const child = qbridge(["serve"], { cwd, env });
  return {
    exited: child.ended,
    stderr: child.stderr,
    async stop(signal) {
      await child.kill(signal);
      return child.ended() ?? "";
    },
  };
}
