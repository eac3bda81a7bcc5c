// The one judge of every answer attempt. A bridge turns what a person did on its surface into
// an attempt in surface-neutral terms (a button token; typed text and the message it replied
// to; a command on the open question), hands it here, and renders the outcome it gets back.
// Every check (the token is known and unused, the presentation is current, the card is still
// pending and unchanged since it was shown, the irreversible confirm step, the one-letter
// confirm rule, redeliveries replayed), the audit row and every write to the ledger's tokens,
// inbox and presentations happen here or in the files this one composes: button-attempts.ts,
// typed-attempts.ts, actions.ts (the table of what each button does) and attempt-audit.ts.
// A bridge never writes those tables itself and never repeats a check.

import type { Answer, Question } from "../../card/question.ts";
import { QbridgeError } from "../../errors.ts";
import { safeAudit } from "../../questions/audit.ts";
import type { LaterOption } from "../attention/later.ts";
import type { Closure } from "../presentation/presenter.ts";
import type { Presentation } from "../presentation/records.ts";
import type { ButtonAction, ButtonSpec, ButtonToken } from "../presentation/tokens.ts";
import type { Slot, SlotOps } from "../slot.ts";
import type { TriageView } from "../triage/actions.ts";
import { audit } from "./audit-line.ts";
import { judgeButton, judgeCommand } from "./taps.ts";
import { judgeText } from "./typed.ts";

/** Who acted: their id on the surface, and whether the bridge knows them as the boxholder. */
export interface Actor {
  id: string | undefined;
  boxholder: boolean;
}

/** A tap on a button: its token and where it was tapped (chat and message), when known. */
export interface ButtonAttempt {
  kind: "button";
  surface: string;
  actor: Actor;
  token: string;
  where?: { chatId: string; messageId: string } | undefined;
}

/**
 * Typed text. `replyTo`: the message it quoted; `chatId` and `messageId`: where it was written
 * (a chat's message ids grow with time, so they tell what was on screen). `confirmed`: the text
 * was confirmed already (a yes after "Record ...?"); with `seq`, it was confirmed for that
 * presentation, which must still be the open one. `literal`: typed as it is (in quotes), so no
 * stray key; an irreversible question still asks first.
 */
export interface TextAttempt {
  kind: "text";
  surface: string;
  actor: Actor;
  text: string;
  chatId?: string | undefined;
  messageId?: number | undefined;
  replyTo?: string | undefined;
  confirmed?: { seq?: number | undefined } | undefined;
  literal?: boolean | undefined;
}

/** A command on the open question (/dismiss, "dismiss" at a keyboard): a button without one. */
export interface CommandAttempt {
  kind: "command";
  surface: string;
  actor: Actor;
  action: ButtonAction;
  /**
   * What was typed with the command, where its button would carry it: a choice ("later
   * morning") as `optionId`, a length of time ("extend 3d") as `label`.
   */
  optionId?: string | undefined;
  label?: string | undefined;
}

export type Attempt = ButtonAttempt | TextAttempt | CommandAttempt;

export type OutcomeKind =
  | "recorded"
  | "replayed"
  | "refused"
  | "needs-confirmation"
  | "clarification"
  | "not-for-us";

/** Why an attempt changed nothing. */
export type Reason =
  | "unknown-token"
  | "stranger"
  | "elsewhere"
  | "not-current"
  | "closed"
  | "changed"
  | "late"
  | "nothing-open"
  | "held-elsewhere"
  | "needs-words"
  | "error";

/**
 * What the bridge does with the buttons of the tapped message, after acknowledging. `later`:
 * the times in the outcome's `later` (a command sends them in a message of their own).
 */
export type Relayout = "drop" | "confirm" | "choices" | "triage" | "later";

/** The tokens' owner: buttons minted for a presentation (or for a question alone, a nudge). */
export interface TokenOwner {
  presentationSeq?: number | undefined;
  questionId: string;
  cardHash: string;
}

export interface Outcome {
  kind: OutcomeKind;
  /** The audit's name for it: "answered", "refused:changed", "confirm-asked", ... */
  name: string;
  /** One plain line a person reads (a callback's answer; what a typed reply is told). */
  reply: string;
  reason?: Reason | undefined;
  /** The core's error behind a refusal or a clarification, for the bridge's own words. */
  error?: unknown;
  /** The answer recorded (or recorded before, on a replay). */
  answer?: Answer | undefined;
  /** The tapped token (button attempts). */
  token?: ButtonToken | undefined;
  /** The presentation the attempt went to. */
  target?: Presentation | undefined;
  /** The card as the judge read it. */
  card?: Question | undefined;
  /** What closed the question, when it was closed already. */
  closure?: Closure | undefined;
  relayout?: Relayout | undefined;
  /** The times a question can be put off to, offered with relayout `later`. */
  later?: LaterOption[] | undefined;
  /** Needs confirmation: the text to record once confirmed, and whose buttons confirm it. */
  confirm?: { text: string; owner: TokenOwner } | undefined;
  /** Triage: the list a confirming tap would record, or what it recorded (relayout "triage"). */
  triage?: TriageView | undefined;
  /** The slot's work once the bridge has shown the outcome (move on, show the next). */
  after?: (() => Promise<void>) | undefined;
}

/** Everything a decision may use: the slot's operations under its lock, and the slot. */
export interface Judging {
  slot: Slot;
  ops: SlotOps;
  now: () => string;
}

export interface Judge {
  /**
   * Judges an attempt under the slot's lock: decides, records (tokens, presentations, audit),
   * then lets the bridge `render` the outcome (acknowledge, reply, edit its buttons), then runs
   * the slot's work that follows (the next question). Resolves to the outcome.
   */
  attempt(attempt: Attempt, render?: (outcome: Outcome) => Promise<void>): Promise<Outcome>;
  /**
   * Mints one token per button for a message about to be sent (or edited) in `chatId`, lets
   * `send` deliver it, and ties the tokens to the message id `send` resolves to. The tokens of a
   * message that failed to send are forgotten (a tap on one, had it arrived, changes nothing).
   */
  withButtons(
    owner: TokenOwner,
    chatId: string,
    buttons: ButtonSpec[],
    send: (tokens: string[]) => Promise<string>,
  ): Promise<string>;
  /** The presentation a message of this surface shows (a reply that quotes it). */
  quoted(surface: string, chatId: string, messageId: string): Presentation | undefined;
  /** True when an update was handled to the end before: a redelivery to skip. */
  handledBefore(key: string): boolean;
  /** Marks an update handled (once its handling has ended). */
  handled(key: string): void;
  /**
   * Audits a stranger's attempt. With `once`: true only the first time for this chat (the one
   * polite refusal a bridge sends into a chat); without, nothing is remembered for the chat.
   */
  refuseStranger(entry: {
    surface: string;
    chatId: string;
    once: boolean;
    actor: string | undefined;
    action: string;
    verbatim?: string | undefined;
    detail: string;
  }): boolean;
}

export function createJudge(slot: Slot): Judge {
  const now = () => slot.core.box.clock.iso();

  async function decide(j: Judging, attempt: Attempt): Promise<Outcome> {
    try {
      switch (attempt.kind) {
        case "button":
          return await judgeButton(j, attempt);
        case "text":
          return await judgeText(j, attempt);
        case "command":
          return await judgeCommand(j, attempt);
      }
    } catch (error) {
      const token = attempt.kind === "button" ? slot.tokens.get(attempt.token) : undefined;
      const reply =
        error instanceof QbridgeError
          ? `Not recorded: ${error.message}`
          : "Something went wrong; nothing was recorded. Try again in a moment.";
      return { kind: "refused", name: "error", reason: "error", reply, error, token };
    }
  }

  return {
    attempt(attempt, render) {
      return slot.exclusive(async (ops) => {
        const j: Judging = { slot, ops, now };
        const outcome = await decide(j, attempt);
        audit(j, attempt, outcome);
        await render?.(outcome);
        await outcome.after?.();
        return outcome;
      });
    },
    async withButtons(owner, chatId, buttons, send) {
      const tokens = slot.tokens.mint(owner, chatId, buttons, now());
      let messageId: string;
      try {
        messageId = await send(tokens);
      } catch (error) {
        // Refused (a chat that blocked the bot refuses every try): its tokens are forgotten,
        // or each retry would leave a message's worth in the ledger.
        slot.tokens.forget(tokens);
        throw error;
      }
      slot.tokens.sentIn(tokens, messageId);
      return messageId;
    },
    quoted: (surface, chatId, messageId) =>
      slot.presentations.byMessage(surface, chatId, messageId),
    handledBefore: (key) => slot.inbox.wasProcessed(key),
    handled(key) {
      slot.inbox.firstDelivery(key, now());
    },
    refuseStranger(entry) {
      safeAudit(slot.core, {
        at: now(),
        surface: entry.surface,
        actor: entry.actor,
        action: entry.action,
        verbatim: entry.verbatim,
        outcome: "refused",
        detail: entry.detail,
      });
      return entry.once && slot.inbox.refuseOnce(entry.surface, entry.chatId, now());
    },
  };
}

/** A closure's words inside a sentence ("was withdrawn by the asker"), not at its start. */
export function midSentence(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
