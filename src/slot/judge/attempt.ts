// What the judge takes and gives back, in surface-neutral terms: the attempt a bridge hands in
// (a button token, typed text, a command), each with whoever made it as the surface saw them
// (`from`: proof.ts), the outcome it renders, and what a decision works with. Types only, so
// the judge's files and the action table share them without importing each other.

import type { Answer, Question } from "../../card/question.ts";
import type { Surface } from "../../questions/answer.ts";
import type { LaterOption } from "../attention/later.ts";
import type { Closure } from "../presentation/presenter.ts";
import type { Presentation } from "../presentation/records.ts";
import type { ButtonAction, ButtonSpec, ButtonToken } from "../presentation/tokens.ts";
import type { Slot, SlotOps } from "../slot.ts";
import type { Waiting } from "../slot-ops.ts";
import type { Digest, TriageView } from "../triage/triage.ts";
import type { From, Who } from "./proof.ts";

/** A tap on a button: its token and where it was tapped (chat and message), when known. */
export interface ButtonAttempt {
  kind: "button";
  from: From;
  token: string;
  where?: { chatId: string; messageId: string } | undefined;
}

/**
 * Typed text. `replyTo`: the message it quoted; `chatId` and `messageId`: where it was written
 * (a chat's message ids grow with time, so they tell what was on screen). `confirmed`: the text
 * was confirmed already (a yes after "Record ...?"); with `seq`, it was confirmed for that
 * presentation, which must still be the open one. `literal`: typed as it is (in quotes), so no
 * stray key; an irreversible question still asks first. `thread`: the message of the thread
 * the text replies in that showed a question (an e-mail's In-Reply-To or References); text
 * written in another question's thread (a reply to its "Recorded" note) is not for the open one.
 */
export interface TextAttempt {
  kind: "text";
  from: From;
  text: string;
  chatId?: string | undefined;
  messageId?: number | undefined;
  replyTo?: string | undefined;
  thread?: string | undefined;
  confirmed?: { seq?: number | undefined } | undefined;
  literal?: boolean | undefined;
}

/**
 * A command that needs no open question: `next` (the next question, a put-off one brought back
 * when nothing else waits), `waiting` (what waits), `grants` and `revoke` (the agents' grants).
 */
export type BoxCommand = "next" | "waiting" | "grants" | "revoke";

/** Every command a surface may send: an action on the open question, or a box command. */
export type CommandName = ButtonAction | BoxCommand;

/**
 * A command (/dismiss, "park" at a keyboard): on the open question a button without one, else
 * a box command.
 */
export interface CommandAttempt {
  kind: "command";
  from: From;
  action: CommandName;
  /**
   * What was typed with the command, where its button would carry it: a choice ("later
   * morning") as `optionId`; a length of time ("extend 3d") or a grant's id ("revoke g-1") as
   * `label`.
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
  | "not-own-surface"
  | "boxholder-only"
  | "error";

/**
 * What the bridge does with the buttons of the tapped message, after acknowledging. `later`:
 * the times in the outcome's `later` (a command sends them in a message of their own).
 */
export type Relayout = "drop" | "confirm" | "choices" | "triage" | "later";

/**
 * The tokens' owner: buttons minted for a presentation (or for a question alone, a nudge or a
 * digest). It names no card hash: the judge takes the presentation's, minted by the slot when it
 * presented the question, so a bridge never makes one and cannot bring a wrong one.
 */
export interface TokenOwner {
  presentationSeq?: number | undefined;
  questionId: string;
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
  /** A multi-select's picks (option ids) its buttons show, with relayout `choices`. */
  picks?: string[] | undefined;
  /** The offers beside the options the message was sent with, with relayout `choices`. */
  offers?: ShownOffers | undefined;
  /**
   * The pick a confirming step (relayout `confirm`) names where it is not the tapped button's
   * own option: a multi-select's Send, its picks' ids joined and their labels.
   */
  pick?: { optionId: string; label: string } | undefined;
  /** Needs confirmation: the text to record once confirmed, and whose buttons confirm it. */
  confirm?: { text: string; owner: TokenOwner } | undefined;
  /** Triage: the list a confirming tap would record, or what it recorded (relayout "triage"). */
  triage?: TriageView | undefined;
  /** What a box command found, for the bridge to show (waiting, next, grants). */
  shows?: CommandView | undefined;
  /** The slot's work once the bridge has shown the outcome (move on, show the next). */
  after?: (() => Promise<void>) | undefined;
}

/** The offers beside a presentation's options: last time's answer again, more time. */
export interface ShownOffers {
  same?: { optionId: string; label: string; from: string } | undefined;
  extendBy?: string | undefined;
}

/** A question put off with Later: what, and until when. */
export interface PutOff {
  id: string;
  prompt: string;
  until: Date;
}

/** What a box command found. */
export type CommandView =
  | {
      kind: "waiting";
      waiting: Waiting;
      /** With a backlog: the triage digest (one line per question and what it offers). */
      digest: Digest | undefined;
      putOff: PutOff[];
    }
  | {
      kind: "next";
      /**
       * `presented`: the next question is shown; `brought-back`: nothing else waited, so the
       * earliest put-off one is shown; `busy`: a question is open here; `held-elsewhere`:
       * another process shows one; `nothing`: nothing waits (or all is put off, `putOff`).
       */
      result: "presented" | "brought-back" | "busy" | "held-elsewhere" | "nothing";
      open: Presentation | undefined;
      count: number;
      putOff: PutOff[];
    }
  | { kind: "grants"; lines: string[] };

/**
 * Everything a decision may use: the slot's operations under its lock, the slot, and whoever
 * made the attempt as the judge resolved them.
 */
export interface Judging {
  slot: Slot;
  ops: SlotOps;
  now: () => string;
  who: Who;
}

/** What a button on the open presentation (or a command on it) acts with. */
export interface PresentedContext extends Judging {
  attempt: ButtonAttempt | CommandAttempt;
  spec: ButtonSpec;
  /** The tapped token; undefined for a command. */
  token: ButtonToken | undefined;
  open: Presentation;
  card: Question;
  /** The surface and person the transition records. */
  surface: Surface;
}

/** What a button that needs no open presentation (a nudge's "Show it") acts with. */
export interface TokenContext extends Judging {
  attempt: ButtonAttempt;
  token: ButtonToken;
}

export type ActionEntry =
  | {
      needs: "presented";
      /**
       * A tap of this action may have answered already (a redelivery after a restart cut the
       * handling short between the commit and the record): confirmed from the card.
       */
      replaysFromCard?: boolean;
      decide(c: PresentedContext): Promise<Outcome>;
    }
  | { needs: "token"; decide(c: TokenContext): Promise<Outcome> };

/** What a box command acts with: no open question, no token. */
export interface BoxContext extends Judging {
  attempt: CommandAttempt;
}
