// What a command prints. A short command writes straight to its file descriptors: building
// process.stdout or process.stdin makes node load its streams and sockets (a few ms of every
// `qbridge show`), and a command that prints one answer needs none of that.
//
// A reader that goes away (`qbridge doctor | head -4`) closes our standard output; the next
// write fails with EPIPE. The command then ends as a Unix program killed by SIGPIPE would: no
// message, exit status 141 (128 + SIGPIPE), which is what a shell's pipeline expects. A
// long-running command (serve) registers a stop instead, so it shuts down in order.

import { fstatSync, readFileSync, writeSync } from "node:fs";
import { InvalidInput } from "../errors.ts";

const SIGPIPE_STATUS = 141;

let stop: (() => void) | undefined;
let closed = false;
let streamsWatched = false;

function ended(error: NodeJS.ErrnoException): void {
  if (error.code !== "EPIPE") throw error;
  if (closed) return;
  closed = true;
  process.exitCode = SIGPIPE_STATUS;
  // Later writes go nowhere instead of failing again.
  if (streamsWatched) {
    for (const stream of [process.stdout, process.stderr]) {
      stream.write = (() => true) as typeof stream.write;
    }
  }
  if (stop) stop();
  else process.exit(SIGPIPE_STATUS);
}

/**
 * For a command that writes through node's streams (serve's log, chat, mcp): a closed stdout or
 * stderr ends it quietly, or runs `fn` instead of exiting at once (serve: a graceful stop).
 */
export function endQuietlyWhenOutputCloses(fn?: () => void): void {
  if (fn) stop = fn;
  if (streamsWatched) return;
  streamsWatched = true;
  process.stdout.on("error", ended);
  process.stderr.on("error", ended);
}

// A descriptor someone else made non-blocking (a parent's shared pipe) may refuse a write
// for a moment: wait a millisecond, as a blocking write would, and go on.
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Control characters but tabs and line breaks (a CRLF's CR too): a card may hold a lone CR or a
 * C1 control (U+009B is CSI to many terminals), which would let it hide or rewrite what a
 * terminal shows.
 */
const CONTROL = /(?![\t\n]|\r\n)\p{Cc}/gu;

/**
 * Each such character written as its JSON escape (`\u009b`): visible at a terminal, and in JSON
 * output, where one can only stand inside a string, the same text once parsed.
 */
function escapeControls(text: string): string {
  return text.replace(
    CONTROL,
    (ch) => `\\u${(ch.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`,
  );
}

function writeAll(fd: 1 | 2, text: string): void {
  if (closed) return;
  let bytes = Buffer.from(text);
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") Atomics.wait(pause, 0, 0, 1);
      else {
        ended(error as NodeJS.ErrnoException);
        return;
      }
    }
  }
}

/** Writes to standard output, all of it before returning. */
export function writeOut(text: string): void {
  writeAll(1, escapeControls(text));
}

/** Writes to standard error, all of it before returning. */
export function writeErr(text: string): void {
  writeAll(2, escapeControls(text));
}

/** Writes over the line standard error's cursor is on (a progress line at a terminal). */
export function rewriteErrLine(text: string): void {
  writeAll(2, `\r${escapeControls(text)}`);
}

/** Whether standard error is a terminal a person watches (progress goes there only). */
export function stderrIsTerminal(): boolean {
  try {
    // A terminal is a character device; /dev/null is one too, and progress written there is lost
    // unseen, which is all a check through node's tty module would have saved.
    return fstatSync(2).isCharacterDevice();
  } catch {
    return false;
  }
}

// Fatal: bytes that are not UTF-8 would become U+FFFD in the card, the asker's text changed.
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Everything on standard input as UTF-8 text (a leading byte-order mark, as some shells write,
 * left out), or "" when it is a terminal (nobody piped a card in). Throws InvalidInput when the
 * bytes are not UTF-8.
 */
export async function readStdin(): Promise<string> {
  return decoded(await readStdinBytes());
}

function decoded(bytes: Buffer): string {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new InvalidInput("standard input is not UTF-8 text: send the card as UTF-8 JSON");
  }
  return text.replace(/^\uFEFF/, "");
}

async function readStdinBytes(): Promise<Buffer> {
  let kind: ReturnType<typeof fstatSync>;
  try {
    kind = fstatSync(0);
  } catch {
    return Buffer.alloc(0); // no standard input at all (closed by the caller)
  }
  if (kind.isCharacterDevice()) return Buffer.alloc(0);
  try {
    return readFileSync(0);
  } catch (error) {
    // A pipe another process made non-blocking: read it the stream's way.
    if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
}

/**
 * Standard input as `readStdin` reads it, through node's stream so the event loop stays free:
 * a signal handled while the writer keeps the pipe open (a hook's agent that never closes it)
 * aborts `signal`, and then this resolves undefined at once, the input left unread.
 */
export async function readStdinUntil(signal: AbortSignal): Promise<string | undefined> {
  try {
    if (fstatSync(0).isCharacterDevice()) return "";
  } catch {
    return "";
  }
  const chunks: Buffer[] = [];
  const ended = new Promise<boolean>((resolve, reject) => {
    process.stdin.on("data", (chunk: Buffer) => chunks.push(chunk));
    process.stdin.once("end", () => resolve(true));
    process.stdin.once("error", reject);
    signal.addEventListener("abort", () => resolve(false), { once: true });
  });
  const whole = signal.aborted ? false : await ended;
  if (!whole) {
    process.stdin.destroy();
    return undefined;
  }
  return decoded(Buffer.concat(chunks));
}
