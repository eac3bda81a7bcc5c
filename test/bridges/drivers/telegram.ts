// The Telegram bridge as a conformance driver, on the emulator: one driver for taps on the
// presented message's buttons, one for typed replies. What the person was told is the
// callback's answer (a tap) or the bot's reply (a typed text).

import type { Update } from "grammy/types";
import {
  type BotMessage,
  buttonData,
  type Emulator,
  type Harness,
  openHarness,
  presentQuestion,
  toBotMessage,
} from "../../support/telegram.ts";
import type { Driver, Session } from "../stories.ts";

const acks = (h: Harness) => h.sent("answerCallbackQuery").map((c) => String(c.payload.text ?? ""));

function shown(h: Harness): string {
  return h.calls
    .filter((c) => ["sendMessage", "editMessageText", "answerCallbackQuery"].includes(c.method))
    .map((c) => String(c.payload.text ?? ""))
    .join("\n");
}

/** Taps the button on `message` whose text starts with `prefix`; resolves to the callback's answer. */
async function tap(h: Harness, message: BotMessage, prefix: string): Promise<string> {
  await h.owner.tap(buttonData(message, prefix), message.messageId);
  await h.pump();
  return acks(h).at(-1) ?? "";
}

/** The buttons a message carries now: the last keyboard it was sent or edited with. */
function buttonsNow(h: Harness, message: BotMessage): BotMessage {
  const edit = h
    .sent("editMessageReplyMarkup")
    .filter((c) => c.payload.message_id === message.messageId)
    .at(-1);
  if (!edit) return message;
  const markup = edit.payload.reply_markup as { inline_keyboard: BotMessage["buttons"][] };
  return { ...message, buttons: markup.inline_keyboard.flat() };
}

async function base(emulator: Emulator, card: Record<string, unknown>) {
  const h = await openHarness(emulator);
  const { id, message } = await presentQuestion(h, card);
  return { h, id, message };
}

/** The bot's commands, each as a person types it (/revoke with an id). */
const COMMANDS: Record<string, string> = {
  park: "/park",
  next: "/next",
  waiting: "/waiting",
  later: "/later",
  dismiss: "/dismiss",
  grants: "/grants",
  revoke: "/revoke g-1",
};

const commands: Driver["commands"] = {
  names: Object.keys(COMMANDS),
  async send(session, name, who) {
    const h = session.box as Harness;
    await (who === "boxholder" ? h.owner : h.stranger).command(COMMANDS[name] as string);
    await h.pump();
    return String(h.sent("sendMessage").at(-1)?.payload.text ?? "");
  },
};

export function tapDriver(emulator: () => Emulator): Driver {
  return {
    surface: "telegram",
    commands,
    async open(card) {
      const { h, id, message } = await base(emulator(), card);
      let last: string | undefined;
      const session: Session = {
        box: h,
        slot: h.slot,
        id,
        async pick(letter) {
          last = buttonData(message, `${letter})`);
          return tap(h, message, `${letter})`);
        },
        confirm: () => tap(h, buttonsNow(h, message), "⚠️ Confirm"),
        async again() {
          if (last) await h.owner.tap(last, message.messageId);
          await h.pump();
          return acks(h).at(-1) ?? "";
        },
        shown: () => shown(h),
        close: async () => {},
      };
      return session;
    },
    async stranger(session, letter) {
      const h = session.box as Harness;
      const message = toBotMessage(h.sent("sendMessage")[0] as Harness["calls"][number]);
      await h.stranger.tap(buttonData(message, `${letter})`), message.messageId);
      await h.pump();
      return acks(h).at(-1) ?? "";
    },
  };
}

export function replyDriver(emulator: () => Emulator): Driver {
  return {
    surface: "telegram",
    commands,
    async open(card) {
      const { h, id } = await base(emulator(), card);
      let last: Update[] = [];
      const said = async (text: string) => {
        await h.owner.say(text);
        last = await h.pump();
        return String(h.sent("sendMessage").at(-1)?.payload.text ?? "");
      };
      const session: Session = {
        box: h,
        slot: h.slot,
        id,
        pick: (letter) => said(letter),
        confirm: async () => tap(h, await h.lastMessage(), "✅ Yes"),
        async again() {
          // The same update delivered again, as Telegram does after a restart.
          for (const update of last) await h.deliver(update);
          return String(h.sent("sendMessage").at(-1)?.payload.text ?? "");
        },
        shown: () => shown(h),
        close: async () => {},
      };
      return session;
    },
    async stranger(session, letter) {
      const h = session.box as Harness;
      await h.stranger.say(letter);
      await h.pump();
      return String(h.sent("sendMessage").at(-1)?.payload.text ?? "");
    },
  };
}
