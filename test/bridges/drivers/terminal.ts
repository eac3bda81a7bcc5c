// The terminal bridge as a conformance driver: its presenter on the slot and its line handler,
// fed one line at a time (each line handled to its end before the next, as the chat's read
// loop does). What the person was told is what the line wrote. No strangers: the keyboard is
// the boxholder's own.

import { createTerminalPresenter } from "../../../bridges/terminal/presenter.ts";
import { createLineHandler } from "../../../bridges/terminal/replies.ts";
import { askQuestion } from "../../../src/questions/ask.ts";
import { createSlot } from "../../../src/slot/slot.ts";
import { makeBox } from "../../support/box.ts";
import type { Driver } from "../stories.ts";

export function terminalDriver(): Driver {
  return {
    surface: "terminal",
    async open(card) {
      const box = await makeBox();
      const slot = createSlot({ core: box });
      let screen = "";
      const write = (text: string) => {
        screen += text;
      };
      slot.attach(createTerminalPresenter({ write, now: () => box.box.clock.now() }));
      const handleLine = createLineHandler({ slot, write, by: "ada" });
      const { id } = await askQuestion(box, card);
      await slot.reconcile();
      let last = "";
      const type = async (line: string) => {
        last = line;
        const from = screen.length;
        await handleLine(line);
        return screen.slice(from);
      };
      return {
        box,
        slot,
        id,
        pick: type,
        confirm: () => type("yes"),
        again: () => type(last),
        shown: () => screen,
        close: () => slot.close(),
      };
    },
  };
}
