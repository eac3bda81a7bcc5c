// The terminal bridge on a box, as `qbridge chat` runs it without the terminal: its presenter on
// a slot and its line handler, with what the person read kept as one screen. `type` hands a line
// to the handler, waits for it to be handled to its end (as the chat's read loop does) and
// returns what that line wrote.

import { createTerminalPresenter, TERMINAL } from "../../bridges/terminal/presenter.ts";
import { createLineHandler } from "../../bridges/terminal/replies.ts";
import type { Core } from "../../src/questions/core.ts";
import { openDoor } from "../../src/slot/door.ts";
import { createSlot, type Slot } from "../../src/slot/slot.ts";

export interface Keyboard {
  slot: Slot;
  type(line: string): Promise<string>;
  /** Everything written so far. */
  screen(): string;
}

export function keyboardOn(core: Core, by = "ada"): Keyboard {
  const slot = createSlot({ core });
  let screen = "";
  const write = (text: string) => {
    screen += text;
  };
  slot.attach(createTerminalPresenter({ write, now: () => core.box.clock.now() }));
  // The person at the keyboard: what a terminal proves (piped input is chat-streams' and the
  // spawned chat's to test).
  const handleLine = createLineHandler({
    door: openDoor(slot, TERMINAL),
    write,
    proof: { kind: "terminal", tty: true, login: by },
  });
  return {
    slot,
    async type(line) {
      const from = screen.length;
      await handleLine(line);
      return screen.slice(from);
    },
    screen: () => screen,
  };
}
