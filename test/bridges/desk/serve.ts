// The desk bridge at work: the slot's question shown in the owner's chat at the desk, one
// button per option, Park and Dismiss; each tap, line and command a person makes there handed
// to the judge with what the desk shows of them (their account, their chat), and the outcome
// said back. It decides nothing and writes nothing of the core's.

import type {
  Bridge,
  BridgeDeps,
  ButtonSpec,
  ButtonToken,
  CommandName,
  Door,
  Outcome,
  Presenter,
  Proof,
} from "../../../src/slot/port.ts";
import { letterOf, optionsOf } from "../../../src/slot/port.ts";

/** A button as the desk shows it: its text, and the token a tap hands back. */
export interface DeskButton {
  text: string;
  token: string;
}

/** What a person did at the desk. */
export type DeskEvent =
  | { kind: "tap"; user: string; chat: string; message: string; token: string }
  | { kind: "say"; user: string; chat: string; text: string }
  | { kind: "command"; user: string; chat: string; name: string; argument?: string | undefined };

/** The desk as the bridge uses it (the chat service's side is the test's). */
export interface DeskService {
  post(chat: string, text: string, buttons: DeskButton[]): string;
  edit(chat: string, message: string, text: string | undefined, buttons: DeskButton[]): void;
  reply(chat: string, text: string): void;
  listen(handler: ((event: DeskEvent) => Promise<void>) | undefined): void;
}

export const STRANGER_WORDS = "Sorry, this desk answers only its owner's questions.";

export function createDesk(deps: BridgeDeps): Bridge {
  const { door } = deps;
  const service = deps.seams as DeskService;
  door.attach(presenter(door, service));
  return {
    async start() {
      service.listen((event) => handle(door, service, event));
      deps.health({ ok: true });
      return ["desk open"];
    },
    async stop() {
      service.listen(undefined);
    },
  };
}

/** Sends or redraws a message with buttons (`shown`: each one's text) whose tokens the judge mints. */
async function withButtons(
  door: Door,
  service: DeskService,
  owner: { presentationSeq?: number | undefined; questionId: string },
  chat: string,
  buttons: { spec: ButtonSpec; shown: string }[],
  message?: string,
  text = "",
): Promise<string> {
  const specs = buttons.map((b) => b.spec);
  return door.withButtons(owner, chat, specs, async (tokens) => {
    const shown = buttons.map((b, i) => ({ text: b.shown, token: tokens[i] as string }));
    if (message === undefined) return service.post(chat, text, shown);
    service.edit(chat, message, undefined, shown);
    return message;
  });
}

function presenter(door: Door, service: DeskService): Presenter {
  return {
    surface: door.surface.name,
    ready: () => door.owner() !== undefined,
    async present(request) {
      const chat = door.owner();
      if (chat === undefined) return undefined;
      const { card } = request.question;
      const buttons = [
        ...optionsOf(card).map((o, i) => ({
          spec: { action: "answer" as const, optionId: o.id, label: o.label },
          shown: `${letterOf(i)}) ${o.label}`,
        })),
        { spec: { action: "park" as const }, shown: "Park" },
        { spec: { action: "dismiss" as const }, shown: "Dismiss" },
      ];
      const owner = { presentationSeq: request.seq, questionId: request.question.id };
      const message = await withButtons(
        door,
        service,
        owner,
        chat,
        buttons,
        undefined,
        card.prompt,
      );
      return { chatId: chat, messageId: message };
    },
    async closed(presentation, closure) {
      if (presentation.chatId === undefined || presentation.messageId === undefined) return;
      service.edit(presentation.chatId, presentation.messageId, closure.text, []);
    },
  };
}

/** What the desk shows of whoever acted: their account, in their own chat or not. */
const proofOf = (user: string, chat: string): Proof => ({
  kind: "account",
  userId: user,
  chatId: chat,
  privateChat: chat === user,
});

async function handle(door: Door, service: DeskService, event: DeskEvent): Promise<void> {
  const proof = proofOf(event.user, event.chat);
  const say = async (outcome: Outcome) => {
    service.reply(event.chat, outcome.reason === "stranger" ? STRANGER_WORDS : outcome.reply);
  };
  switch (event.kind) {
    case "tap":
      await door.attempt(
        {
          kind: "button",
          proof,
          token: event.token,
          where: { chatId: event.chat, messageId: event.message },
        },
        async (outcome) => {
          await say(outcome);
          if (outcome.reason !== "stranger") await redraw(door, service, outcome.token, outcome);
        },
      );
      return;
    case "say":
      await door.attempt({ kind: "text", proof, text: event.text, chatId: event.chat }, say);
      return;
    case "command":
      await door.attempt(
        { kind: "command", proof, action: event.name as CommandName, label: event.argument },
        say,
      );
      return;
  }
}

/** The tapped message's buttons after the outcome: the confirming pair, or none. */
async function redraw(
  door: Door,
  service: DeskService,
  token: ButtonToken | undefined,
  outcome: Outcome,
): Promise<void> {
  if (!token?.messageId) return;
  const owner = { presentationSeq: token.presentationSeq, questionId: token.questionId };
  if (outcome.relayout === "confirm") {
    const { optionId, label } = token;
    const buttons = [
      { spec: { action: "confirm" as const, optionId, label }, shown: `Confirm ${label ?? ""}` },
      { spec: { action: "back" as const, optionId, label }, shown: "Back" },
    ];
    await withButtons(door, service, owner, token.chatId, buttons, token.messageId);
  } else if (outcome.relayout === "drop") {
    service.edit(token.chatId, token.messageId, undefined, []);
  }
}
