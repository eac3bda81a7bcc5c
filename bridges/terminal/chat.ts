// The terminal bridge: the boxholder at a keyboard answers through the same judge and the same
// answer path as on Telegram. One factory with everything passed in; it attaches its presenter
// through its door and reads typed lines until "quit" or the end of input. What it shows the
// judge of whoever types is read off its own streams: both terminal devices (a person at a
// terminal), or not (piped input, which proves no person). It never renders buttons and never
// touches the box except through its door.

import { createInterface } from "node:readline";
import { controlsSpelled, type Door } from "../../src/slot/port.ts";
import { createTerminalPresenter } from "./presenter.ts";
import { createLineHandler, lineForError } from "./replies.ts";

export interface TerminalBridgeOptions {
  door: Door;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Who sits at the keyboard (the login name), recorded as answered-by. */
  login?: string | undefined;
}

/** True when the stream is a terminal device (node sets `isTTY` on those only). */
function isTerminal(stream: NodeJS.ReadableStream | NodeJS.WritableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

export interface TerminalBridge {
  /** Reads lines until "quit" or the end of input; resolves when done. */
  run(): Promise<void>;
}

export function createTerminalBridge(options: TerminalBridgeOptions): TerminalBridge {
  const { door, output } = options;
  // Line editing and a "> " prompt on a terminal; and what the judge is shown of whoever types.
  const interactive = isTerminal(options.input) && isTerminal(output);
  // Card and answer text may hold a CR or a C1 control: spelled out, it cannot rewrite the screen.
  const write = (text: string) => {
    output.write(controlsSpelled(text));
  };
  // While a typed line is handled, a question the slot presents meanwhile waits until the line's
  // own reply ("Recorded: X") is written: the reply must come before the next question's block.
  let held: { text: string; seq: number }[] | undefined;
  let rl: ReturnType<typeof createInterface> | undefined;
  // The presentation whose block is on screen, and, for a line the person had begun typing
  // when the next block appeared, the one on screen then: that line was written for it.
  let onScreen: number | undefined;
  let begunUnder: { seq: number | undefined } | undefined;
  const showQuestion = (text: string, seq: number) => {
    if (rl?.line && !begunUnder) begunUnder = { seq: onScreen };
    onScreen = seq;
    write(text);
  };
  const writeQuestion = (text: string, seq: number) =>
    held ? held.push({ text, seq }) : showQuestion(text, seq);
  const proof = { kind: "terminal", tty: interactive, login: options.login } as const;
  // Its reader is whoever types: piped input reaches nobody a hook's question could.
  door.attach(createTerminalPresenter({ write, writeQuestion, now: () => door.now() }), proof);
  const handleLine = createLineHandler({ door, write, proof });

  return {
    async run() {
      const reader = createInterface({
        input: options.input,
        ...(interactive ? { output, terminal: true, prompt: "> " } : { terminal: false }),
      });
      rl = reader;
      reader.on("SIGINT", () => reader.close());
      if (interactive) reader.prompt();
      try {
        for await (const line of reader) {
          let outcome: Awaited<ReturnType<typeof handleLine>>;
          held = [];
          const under = begunUnder;
          begunUnder = undefined;
          try {
            outcome = await handleLine(line, under);
          } catch (error) {
            write(lineForError(error));
          } finally {
            const blocks = held;
            held = undefined;
            for (const block of blocks) showQuestion(block.text, block.seq);
          }
          if (outcome === "quit") break;
          if (interactive) reader.prompt();
        }
      } finally {
        reader.close();
      }
    },
  };
}
