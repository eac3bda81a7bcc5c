// The e-mail side of the slot: a presented question is one e-mail to the boxholder's paired
// address, its Message-ID kept as the presentation's message; a closed one is told in its
// thread in one short e-mail (answered elsewhere, withdrawn), since a sent e-mail cannot be
// edited; nudges and expiry notices are e-mails too, sent when the slot says (quiet hours).

import {
  type Address,
  ChatRefuses,
  type Closure,
  type Presentation,
  type Presenter,
  type PresentRequest,
  type QuestionView,
} from "../../src/slot/port.ts";
import { questionLetter } from "./compose.ts";
import { closureNote, expiredNote, nudgeNote } from "./notes.ts";
import type { Sender } from "./outgoing.ts";

export const SURFACE = "email";

export interface PresenterDeps {
  /** The box's clock, from the bridge's door. */
  now: () => Date;
  sender: Sender;
  /** The boxholder's paired address, when one is. */
  owner: () => string | undefined;
  /** The signed link to a question's page, when a public URL is configured. */
  link: (questionId: string) => string | undefined;
  /** How long a question waits untapped on another surface before it is e-mailed too. */
  secondAfterMs: number;
}

/** Closures told in the thread: those a person did elsewhere, or that end the question. */
const TOLD: ReadonlySet<Closure["kind"]> = new Set([
  "answered",
  "dismissed",
  "withdrawn",
  "expired",
  "removed",
]);

/**
 * The server refused the boxholder's address for good (5xx on RCPT: no such mailbox): the slot
 * holds e-mail off until the boxholder writes again. A server that is down stays a failure.
 */
export function refusalOf(error: unknown): ChatRefuses | undefined {
  const { responseCode, command } = error as { responseCode?: number; command?: string };
  if (responseCode !== undefined && responseCode >= 550 && /RCPT/i.test(command ?? "")) {
    return new ChatRefuses(String((error as Error).message));
  }
  return undefined;
}

async function toOwner<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    throw refusalOf(error) ?? error;
  }
}

/** `link` with an option chosen on the page (`pick`): the e-mail's buttons. */
export function pickLink(link: string | undefined, optionId?: string): string | undefined {
  if (!link || optionId === undefined) return link;
  return `${link}&pick=${encodeURIComponent(optionId)}`;
}

export function createEmailPresenter(deps: PresenterDeps): Presenter {
  const { sender, owner } = deps;
  return {
    surface: SURFACE,
    second: { afterMs: deps.secondAfterMs },
    ready: () => owner() !== undefined,
    async present(request) {
      const to = owner();
      return to === undefined ? undefined : toOwner(() => sendQuestion(deps, request, to));
    },
    closed: (presentation, closure) => tellClosed(deps, presentation, closure),
    async nudge(question, presented) {
      const to = owner();
      if (to === undefined) return false;
      const asked = new Date(question.card["asked-at"]).getTime();
      const days = Math.floor((deps.now().getTime() - asked) / 86_400_000);
      const thread = threadOf(presented, to);
      await toOwner(() => sender.send(to, nudgeNote(question.card.prompt, days), thread));
      return true;
    },
    async expired(questions: readonly QuestionView[]) {
      const to = owner();
      if (to === undefined) return false;
      const lines = questions.map((q) => ({
        id: q.id,
        prompt: q.card.prompt,
        link: deps.link(q.id),
      }));
      await toOwner(() => sender.send(to, expiredNote(lines)));
      return true;
    },
  };
}

async function sendQuestion(
  deps: PresenterDeps,
  request: PresentRequest,
  to: string,
): Promise<Address> {
  const { question } = request;
  const link = deps.link(question.id);
  const letter = questionLetter({
    card: question.card,
    behind: request.behind,
    now: deps.now(),
    link: (optionId) => pickLink(link, optionId),
    lastTime: request.lastTime,
    alsoOn: request.alsoOn,
  });
  const messageId = await deps.sender.send(to, letter);
  return { chatId: to, messageId };
}

/** The thread of a presentation shown by e-mail to `to`, for a note that belongs in it. */
function threadOf(presented: Presentation | undefined, to: string) {
  if (presented?.surface !== SURFACE || presented.messageId === undefined) return undefined;
  if (presented.chatId !== to) return undefined;
  return { inReplyTo: presented.messageId, references: [] };
}

/**
 * A closed presentation's e-mail cannot change: its thread is told what happened, once, unless
 * it was this e-mail's own reply that answered (that reply was answered already) or the slot
 * only moved on (parked, set aside, changed: the next e-mail says enough).
 */
async function tellClosed(
  deps: PresenterDeps,
  presentation: Presentation,
  closure: Closure,
): Promise<void> {
  const to = presentation.chatId;
  if (to === undefined || presentation.messageId === undefined || !TOLD.has(closure.kind)) return;
  if (closure.kind === "answered" && closure.card?.["answered-via"] === SURFACE) return;
  const prompt = closure.card?.prompt ?? presentation.questionId;
  const thread = { inReplyTo: presentation.messageId, references: [] };
  await deps.sender.send(to, closureNote(prompt, closure), thread);
}
