// The whole terminal bridge as `qbridge chat` runs it, over in-process streams: its read loop,
// presenter and line handler on a real box, with what the person read kept as one screen.
// `type` writes a line and waits until the screen shows what it expects.

import { PassThrough } from "node:stream";
import { createTerminalBridge } from "../../bridges/terminal/chat.ts";
import { TERMINAL } from "../../bridges/terminal/presenter.ts";
import { askQuestion } from "../../src/questions/ask.ts";
import { openDoor } from "../../src/slot/door.ts";
import { createSlot } from "../../src/slot/slot.ts";
import { makeBox } from "./box.ts";
import { eventually } from "./telegram.ts";

/** `tty`: both streams pass for a terminal's (a person typing, key by key, with line editing). */
export async function chatOverStreams(options: { tty?: boolean } = {}) {
  const box = await makeBox();
  const slot = createSlot({ core: box });
  const input = new PassThrough();
  const output = new PassThrough();
  if (options.tty) {
    Object.assign(input, { isTTY: true });
    Object.assign(output, { isTTY: true, columns: 200 });
  }
  let screen = "";
  output.on("data", (d) => {
    screen += d;
  });
  const bridge = createTerminalBridge({
    door: openDoor(slot, TERMINAL),
    input,
    output,
    login: "ada",
  });
  let running: Promise<void> | undefined;
  return {
    box,
    dir: box.dir,
    slot,
    ask: async (card: Record<string, unknown>) => (await askQuestion(box, card)).id,
    screen: () => screen,
    async start() {
      await slot.reconcile();
      running = bridge.run();
    },
    /** Types keys without ending the line. */
    press(keys: string) {
      input.write(keys);
    },
    /** Types a line and waits until the screen shows `expect`; returns what the line wrote. */
    async type(line: string, expect: string) {
      const from = screen.length;
      input.write(`${line}\n`);
      await eventually(() => screen.slice(from).includes(expect) || undefined, 5_000, expect);
      return screen.slice(from);
    },
    async quit() {
      input.end();
      await running;
      await slot.close();
    },
  };
}
