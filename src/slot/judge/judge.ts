// The one judge of every answer attempt. A bridge turns what a person did on its surface into
// an attempt in surface-neutral terms (a button token; typed text and the message it replied
// to; a command on the open question), hands it here, and renders the outcome it gets back.
// Every check (the token is known and unused, the presentation is current, the card is still
// pending and unchanged since it was shown, the irreversible confirm step, the one-letter
// confirm rule, redeliveries replayed), the audit row and every write to the ledger's tokens,
// inbox and presentations happen here or in the files this one composes: taps.ts, typed.ts,
// actions.ts (the table of what each button does), audit-line.ts and shown-whole.ts (an agent's
// request is allowed only from a surface that showed it whole). A bridge never writes
// those tables itself, never repeats a check and never makes a card hash. The web form's answer
// needs no slot and is judged in form.ts.

import { questionFingerprint } from "../../card/fingerprint.ts";
import { optionsOf } from "../../card/question.ts";
import { QbridgeError } from "../../errors.ts";
import { safeAudit } from "../../questions/audit.ts";
import { loadQuestion } from "../../questions/store.ts";
import type { Presentation } from "../presentation/records.ts";
import type { ButtonSpec } from "../presentation/tokens.ts";
import type { Slot } from "../slot.ts";
import type { Attempt, Judging, Outcome, ShownOffers, TokenOwner } from "./attempt.ts";
import { audit } from "./audit-line.ts";
import { bookOf } from "./book.ts";
import { answersShownWhole } from "./shown-whole.ts";
import { judgeButton, judgeCommand } from "./taps.ts";
import { judgeText } from "./typed.ts";
import { whoActed } from "./who.ts";

export type {
  Attempt,
  BoxCommand,
  ButtonAttempt,
  CommandAttempt,
  CommandName,
  CommandView,
  Judging,
  Outcome,
  OutcomeKind,
  PutOff,
  Reason,
  Relayout,
  TextAttempt,
  TokenOwner,
} from "./attempt.ts";
export type { From, LinkRole, Proof, SurfaceDeclaration, Trust, Who } from "./proof.ts";

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
   * Each token carries the card hash of its presentation (cardHashes); a bridge brings none.
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
   * Audits a stranger's update that is no attempt (a picture, an edit). With `once`: true only
   * the first time for this chat (the one polite refusal a bridge sends into a chat); without,
   * nothing is remembered for the chat.
   */
  refuseStranger(entry: StrangerUpdate): boolean;
}

/** A stranger's update that is no attempt, as the judge audits it. */
export interface StrangerUpdate {
  surface: string;
  chatId: string;
  /** Whether this chat is answered once only (a message), or each time (a callback). */
  once: boolean;
  actor: string | undefined;
  action: string;
  verbatim?: string | undefined;
  detail: string;
}

/**
 * The card hash each button of `owner`'s message is judged by: a presentation's is the one the
 * slot minted when it presented the question (whatever the bridge rendered since); a button with
 * no presentation (a nudge's Show, a digest's) is about its card as it is now.
 */
function cardHashes(slot: Slot, owner: TokenOwner): (questionId: string) => string {
  if (owner.presentationSeq !== undefined) {
    const presentation = slot.presentations.get(owner.presentationSeq);
    if (!presentation || presentation.questionId !== owner.questionId) {
      throw new Error(
        `buttons for presentation ${owner.presentationSeq} of "${owner.questionId}": the slot presented no such question; mint buttons for the presentation the present request names`,
      );
    }
    return () => presentation.cardHash;
  }
  return (questionId) => questionFingerprint(loadQuestion(slot.core, questionId).card);
}

/** Decides one attempt; a failure of the core is a refusal that says what to do, never a throw. */
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
    const token = attempt.kind === "button" ? j.slot.tokens.get(attempt.token) : undefined;
    const reply =
      error instanceof QbridgeError
        ? `Not recorded: ${error.message}`
        : "Something went wrong; nothing was recorded. Try again in a moment.";
    return { kind: "refused", name: "error", reason: "error", reply, error, token };
  }
}

/**
 * Choices that come back on a message (relayout "choices": Back, a multi-select's pick) come
 * with the offers that message was sent with, so Back never takes [⏳ +7 days] away.
 */
function withOffers(slot: Slot, outcome: Outcome): Outcome {
  const seq = outcome.token?.presentationSeq ?? outcome.target?.seq;
  const { card } = outcome;
  if (outcome.relayout !== "choices" || seq === undefined || !card) return outcome;
  const offers: ShownOffers = {};
  for (const spec of slot.tokens.offered(seq)) {
    if (spec.action === "extend") offers.extendBy = spec.label;
    const option = optionsOf(card).find((o) => o.id === spec.optionId);
    if (spec.action === "same" && option) {
      offers.same = { optionId: option.id, label: option.label, from: spec.label ?? "" };
    }
  }
  return { ...outcome, offers };
}

/** Mints a message's tokens, sends it, and ties the tokens to the message it became. */
async function withButtons(
  slot: Slot,
  now: () => string,
  ...[owner, chatId, buttons, send]: Parameters<Judge["withButtons"]>
): Promise<string> {
  const tokens = slot.tokens.mint(owner, cardHashes(slot, owner), chatId, buttons, now());
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
}

export function createJudge(slot: Slot): Judge {
  const now = () => slot.core.box.clock.iso();
  return {
    attempt(attempt, render) {
      return slot.exclusive(async (ops) => {
        const who = whoActed(attempt.from, bookOf(slot.core));
        const shown = slot.shownChars(attempt.from.surface.name);
        const j: Judging = { slot, ops: answersShownWhole(ops, shown), now, who };
        const outcome = withOffers(slot, await decide(j, attempt));
        audit(j, attempt, outcome);
        await render?.(outcome);
        await outcome.after?.();
        return outcome;
      });
    },
    withButtons: (...args) => withButtons(slot, now, ...args),
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
        outcome: "refused:stranger",
        detail: entry.detail,
      });
      return entry.once && slot.inbox.refuseOnce(entry.surface, entry.chatId, now());
    },
  };
}
