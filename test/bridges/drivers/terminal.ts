// The terminal bridge as a conformance driver: its presenter on the slot and its line handler,
// fed one line at a time (each line handled to its end before the next, as the chat's read
// loop does). What the person was told is what the line wrote. No strangers: the keyboard is
// the boxholder's own.

import { askQuestion } from "../../../src/questions/ask.ts";
import { makeBox } from "../../support/box.ts";
import { keyboardOn } from "../../support/keyboard.ts";
import type { Driver } from "../stories.ts";

export function terminalDriver(): Driver {
  return {
    surface: "terminal",
    async open(card) {
      const box = await makeBox();
      const { slot, type: handled, screen } = keyboardOn(box);
      const { id } = await askQuestion(box, card);
      await slot.reconcile();
      let last = "";
      const type = (line: string) => {
        last = line;
        return handled(line);
      };
      return {
        box,
        slot,
        id,
        pick: type,
        confirm: () => type("yes"),
        again: () => type(last),
        shown: screen,
        close: () => slot.close(),
      };
    },
  };
}
