// A reader that goes away (`qbridge doctor | head -4`) closes our standard output; the next
// write fails with EPIPE. The command then ends as a Unix program killed by SIGPIPE would: no
// message, exit status 141 (128 + SIGPIPE), which is what a shell's pipeline expects. A
// long-running command (serve) registers a stop instead, so it shuts down in order.

const SIGPIPE_STATUS = 141;

let stop: (() => void) | undefined;
let closed = false;

/** Runs `fn` instead of exiting at once when the output closes (serve: a graceful stop). */
export function onOutputClosed(fn: () => void): void {
  stop = fn;
}

function ended(error: NodeJS.ErrnoException): void {
  if (error.code !== "EPIPE") throw error;
  if (closed) return;
  closed = true;
  process.exitCode = SIGPIPE_STATUS;
  // Later writes go nowhere instead of failing again.
  for (const stream of [process.stdout, process.stderr]) {
    stream.write = (() => true) as typeof stream.write;
  }
  if (stop) stop();
  else process.exit(SIGPIPE_STATUS);
}

/** Installed once at start: a closed stdout or stderr ends the command quietly. */
export function endQuietlyWhenOutputCloses(): void {
  process.stdout.on("error", ended);
  process.stderr.on("error", ended);
}

/** The exit status a command that lost its output ends with (kept over its own). */
export function outputWasClosed(): boolean {
  return closed;
}
