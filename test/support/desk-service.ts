// The desk's chat service, held in memory for the desk bridge (test/bridges/desk/): chats of
// messages with buttons, and people who tap, type and send commands there. Each action waits
// until the bridge has handled it. What it keeps is what a person at the desk would read.

import type { DeskButton, DeskEvent, DeskService } from "../bridges/desk/serve.ts";

export interface DeskMessage {
  chat: string;
  id: string;
  text: string;
  buttons: DeskButton[];
}

export interface Desk extends DeskService {
  /** Everything said or shown, in order: posts, edits' texts, replies. */
  said: string[];
  /** The replies to what people did, in order. */
  replies: string[];
  messages: DeskMessage[];
  /** The buttons a message carries now. */
  buttonsOf(chat: string, id: string): DeskButton[];
  /** What `user` does in `chat`; resolves once the bridge has handled it. */
  act(event: DeskEvent): Promise<void>;
}

export function deskService(): Desk {
  let handler: ((event: DeskEvent) => Promise<void>) | undefined;
  const messages: DeskMessage[] = [];
  const said: string[] = [];
  const replies: string[] = [];
  const find = (chat: string, id: string) => messages.find((m) => m.chat === chat && m.id === id);
  return {
    said,
    replies,
    messages,
    post(chat, text, buttons) {
      const id = String(messages.length + 1);
      messages.push({ chat, id, text, buttons });
      said.push(text);
      return id;
    },
    edit(chat, id, text, buttons) {
      const message = find(chat, id);
      if (!message) throw new Error(`the desk has no message ${id} in ${chat}`);
      if (text !== undefined) {
        message.text = text;
        said.push(text);
      }
      message.buttons = buttons;
    },
    reply(_chat, text) {
      said.push(text);
      replies.push(text);
    },
    listen(next) {
      handler = next;
    },
    buttonsOf: (chat, id) => find(chat, id)?.buttons ?? [],
    async act(event) {
      if (!handler) throw new Error("the desk bridge is not listening");
      await handler(event);
    },
  };
}
