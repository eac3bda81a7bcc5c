// The terminal bridge: the boxholder at a keyboard answers through the same slot and the same
// answer path as on Telegram. One factory with everything passed in; it attaches its presenter
// to the slot and reads typed lines until "quit" or the end of input. It never renders buttons
// and never touches the box except through the slot.

import { createInterface } from "node:readline";
import type { Slot } from "../../src/slot/port.ts";
import { createTerminalPresenter } from "./presenter.ts";
import { createLineHandler, lineForError } from "./replies.ts";

export interface TerminalBridgeOptions {
  slot: Slot;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Who sits at the keyboard, recorded as answered-by. */
  by?: string | undefined;
  /** Line editing and a "> " prompt (on a terminal; off when the input is piped). */
  interactive?: boolean;
}

export interface TerminalBridge {
  /** Reads lines until "quit" or the end of input; resolves when done. */
  run(): Promise<void>;
}

export function createTerminalBridge(options: TerminalBridgeOptions): TerminalBridge {
  const { slot, output } = options;
  const interactive = options.interactive ?? false;
  const write = (text: string) => {
    output.write(text);
  };
  // While a typed line is handled, a question the slot presents meanwhile waits until the line's
  // own reply ("Recorded: X") is written: the reply must come before the next question's block.
  let held: string[] | undefined;
  const writeQuestion = (text: string) => (held ? held.push(text) : write(text));
  const now = () => slot.core.box.clock.now();
  slot.attach(createTerminalPresenter({ write, writeQuestion, now }));
  const handleLine = createLineHandler({ slot, write, by: options.by });

  return {
    async run() {
      const rl = createInterface({
        input: options.input,
        ...(interactive ? { output, terminal: true, prompt: "> " } : { terminal: false }),
      });
      rl.on("SIGINT", () => rl.close());
      if (interactive) rl.prompt();
      try {
        for await (const line of rl) {
          let outcome: Awaited<ReturnType<typeof handleLine>>;
          held = [];
          try {
            outcome = await handleLine(line);
          } catch (error) {
            write(lineForError(error));
          } finally {
            const blocks = held;
            held = undefined;
            for (const block of blocks) write(block);
          }
          if (outcome === "quit") break;
          if (interactive) rl.prompt();
        }
      } finally {
        rl.close();
      }
    },
  };
}
