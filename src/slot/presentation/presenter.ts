// What a bridge gives the slot: a way to show a question, to update a shown one once it is
// closed, and (optionally) to deliver a nudge. A bridge owns its rendering; the slot owns which
// question is shown and when. Nothing here knows any chat service.

import type { Question } from "../../card/question.ts";
import type { QuestionView } from "../../questions/state.ts";
import type { LastTimeOffer } from "./last-time.ts";
import type { Address, Presentation } from "./records.ts";

/**
 * Thrown by a presenter when the boxholder's chat does not take messages and will not by
 * itself (the bot blocked, the chat gone), unlike a chat service that is down: the slot holds
 * off that surface (reach.ts) until the hold-off ends or the boxholder writes there.
 */
export class ChatRefuses extends Error {
  override name = "ChatRefuses";
  /** `why`: the chat service's own words ("Forbidden: bot was blocked by the user"). */
  constructor(readonly why: string) {
    super(`the boxholder's chat refuses messages: ${why}`);
  }
}

export interface PresentRequest {
  /**
   * The presentation's ledger number: buttons minted for it name it, and the judge judges them
   * by the card hash the slot recorded with it when it presented (a bridge carries no hash).
   */
  seq: number;
  question: QuestionView;
  /** How many other pending questions wait behind this one. */
  behind: number;
  /** Shown without a sound (the slot decided: a `low` question outside quiet hours). */
  silent: boolean;
  /**
   * Set with the first question after quiet hours: how many questions arrived during them and
   * waited. The bridge says so in one short line before this question.
   */
  overnight?: number;
  /** The answered question most like this one ("Last time (3 Mar): Finance"), when there is one. */
  lastTime?: LastTimeOffer;
  /** Set when an Extend button is offered: the time it adds (an ISO-8601 duration). */
  extendBy?: string;
  /**
   * Set on a second showing (second.ts): the surface the question is shown on first, where it
   * waits too. The first answer on either is the one recorded.
   */
  alsoOn?: string;
}

/** What closed a presentation, for the bridge to show in place of its buttons. */
export interface Closure {
  kind:
    | "answered"
    | "dismissed"
    | "expired"
    | "withdrawn"
    | "parked"
    | "later"
    | "changed"
    | "removed"
    | "set-aside";
  /** One line a person reads: "answered via web: Finance". */
  text: string;
  /** The card as it is now, when it still exists. */
  card: Question | undefined;
}

export interface Presenter {
  /** The surface name recorded with each presentation: telegram, terminal, ... */
  readonly surface: string;
  /**
   * True when what it shows is gone once this process ends (a terminal, not a chat service's
   * message): the slot records this process as the holder, gives the presentation up when the
   * process leaves, and any process takes the slot over once the holder is gone.
   */
  readonly livesWithProcess?: boolean;
  /**
   * How many characters of a prompt it always shows whole; Infinity when it shows a card's
   * whole `request` too (an agent's request beyond its prompt). An allow of an agent's request
   * is recorded from this surface only when it showed all of it (src/card/agent-request.ts);
   * left out, none is.
   */
  readonly shows?: number;
  /**
   * True when whoever reads it proves only an asker (a chat fed piped input): it shows
   * questions, but nobody who may answer an agent's hook question reads them there, so it
   * counts for no one a hook could reach (presence.ts). Set by the door from the judge's word
   * on the reader's proof, never by a bridge.
   */
  readonly askerOnly?: boolean;
  /** False while the bridge cannot show anything (no boxholder bound yet). */
  ready(): boolean;
  /**
   * A second channel: a question shown on another surface and left there untapped this long,
   * or of high priority at once, is shown here too (second.ts). Absent: never a second.
   */
  readonly second?: { afterMs: number };
  /**
   * Shows the question; resolves to where it was shown, or undefined when it could not. Throws
   * ChatRefuses (here and in `nudge`, `expired`) when the boxholder's chat refuses messages.
   */
  present(request: PresentRequest): Promise<Address | undefined>;
  /** Updates a presentation that was closed: says what happened, leaves no buttons. */
  closed(presentation: Presentation, closure: Closure): Promise<void>;
  /** Delivers a nudge for a pending question (`presented` when it is the shown one). */
  nudge?(question: QuestionView, presented: Presentation | undefined): Promise<boolean>;
  /**
   * Tells, in one message, that these questions expired unanswered (they stay answerable on
   * the web); resolves true when it reached the boxholder.
   */
  expired?(questions: readonly QuestionView[]): Promise<boolean>;
}
