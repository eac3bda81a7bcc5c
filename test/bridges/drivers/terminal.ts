// The terminal bridge as a conformance driver: its presenter on the slot and its line handler,
// fed one line at a time (each line handled to its end before the next, as the chat's read
// loop does). What the person was told is what the line wrote. No strangers: the keyboard is
// the boxholder's own; its commands are typed words, each an attempt for the judge.

import { askQuestion } from "../../../src/questions/ask.ts";
import { makeBox } from "../../support/box.ts";
import { keyboardOn } from "../../support/keyboard.ts";
import type { Driver } from "../stories.ts";

/** The words typed at the keyboard for each of the judge's commands the terminal offers. */
const COMMANDS = ["park", "next", "waiting", "later", "dismiss"];

export function terminalDriver(): Driver {
  const typers = new WeakMap<object, (line: string) => Promise<string>>();
  return {
    surface: "terminal",
    commands: {
      names: COMMANDS,
      async send(session, name) {
        const type = typers.get(session);
        if (!type) throw new Error("a command typed on a session this driver did not open");
        return type(name);
      },
    },
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
      const session = {
        box,
        slot,
        id,
        pick: type,
        confirm: () => type("yes"),
        again: () => type(last),
        shown: screen,
        close: () => slot.close(),
      };
      typers.set(session, type);
      return session;
    },
  };
}
