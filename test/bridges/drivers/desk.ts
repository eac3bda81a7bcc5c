// The desk bridge (test/bridges/desk/), a bridge written for tests through the port alone, as a
// conformance driver: the service's side is held in memory (test/support/desk-service.ts), so
// the stories run on a bridge that decides nothing of its own. The boxholder is "ada"; a
// stranger, "mallory", taps the buttons of ada's message.

import { askQuestion } from "../../../src/questions/ask.ts";
import { declared } from "../../../src/slot/bridge.ts";
import { openDoor } from "../../../src/slot/door.ts";
import { createSlot } from "../../../src/slot/slot.ts";
import { makeBox } from "../../support/box.ts";
import { type Desk, deskService } from "../../support/desk-service.ts";
import { desk } from "../desk/bridge.ts";
import type { DeskButton, DeskEvent } from "../desk/serve.ts";
import type { Driver, Session } from "../stories.ts";

const OWNER = "ada";
const quiet = { info() {}, warn() {}, error() {} };

/**
 * Taps the button whose text starts with `prefix` among `buttons` (those a message carried when
 * the person saw it), on the question's message, as `user`.
 */
async function tap(
  service: Desk,
  message: string,
  buttons: DeskButton[],
  prefix: string,
  user: string,
) {
  const button = buttons.find((b) => b.text.startsWith(prefix));
  if (!button) throw new Error(`no button "${prefix}" on the desk's message`);
  const event: DeskEvent = { kind: "tap", user, chat: OWNER, message, token: button.token };
  await service.act(event);
  return event;
}

interface Shown {
  service: Desk;
  message: string;
  /** The buttons the question's message carried when it was shown. */
  buttons: DeskButton[];
}

const sessions = new WeakMap<Session, Shown>();

export function deskDriver(): Driver {
  return {
    surface: "desk",
    async open(card) {
      const box = await makeBox();
      const slot = createSlot({ core: box });
      const service = deskService();
      const bridge = await desk.create(
        { owner: OWNER },
        {
          door: openDoor(slot, declared(desk.surface, desk.proves, OWNER)),
          logger: quiet,
          web: { host: "127.0.0.1" },
          link: () => undefined,
          questionsLink: () => undefined,
          health: () => undefined,
          fail: () => undefined,
          seams: service,
        },
      );
      await bridge.start();
      const { id } = await askQuestion(box, card);
      await slot.reconcile();
      const message = service.messages.at(-1)?.id as string;
      const buttons = service.buttonsOf(OWNER, message);
      let last: DeskEvent | undefined;
      const told = () => service.replies.at(-1) ?? "";
      const session: Session = {
        box,
        slot,
        id,
        async pick(letter) {
          last = await tap(service, message, buttons, `${letter})`, OWNER);
          return told();
        },
        async confirm() {
          const now = service.buttonsOf(OWNER, message);
          last = await tap(service, message, now, "Confirm", OWNER);
          return told();
        },
        async again() {
          if (last) await service.act(last);
          return told();
        },
        shown: () => service.said.join("\n"),
        async close() {
          await bridge.stop();
          await slot.close();
        },
      };
      sessions.set(session, { service, message, buttons });
      return session;
    },
    async stranger(session, letter) {
      const { service, message, buttons } = sessions.get(session) as Shown;
      await tap(service, message, buttons, `${letter})`, "mallory");
      return service.replies.at(-1) ?? "";
    },
    commands: {
      names: ["park", "next", "waiting", "later", "dismiss", "grants", "revoke"],
      async send(session, name, who) {
        const { service } = sessions.get(session) as Shown;
        const user = who === "boxholder" ? OWNER : "mallory";
        const argument = name === "revoke" ? "g-1" : undefined;
        await service.act({ kind: "command", user, chat: user, name, argument });
        return service.replies.at(-1) ?? "";
      },
    },
  };
}
