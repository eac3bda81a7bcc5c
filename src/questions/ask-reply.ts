// The reply to an ask, made once for every surface: the question's id, whether it was found open
// already (deduplicated), its card and commit, the advice on asking, the answered questions like
// it and until when it waits. `qbridge ask`, the API's ask route and the MCP tools render from
// it; none composes its own. The advice is made while git commits the card (askQuestion's
// meanwhile): it needs the card and the ledger, not the commit, and the process would otherwise
// sit idle waiting for git. A question found open already gets it made after.

import type { Question } from "../card/question.ts";
import { type AskOptions, askQuestion } from "./ask.ts";
import type { Core } from "./core.ts";
import type { OutcomeContext } from "./outcome.ts";
import { type SimilarQuestion, similarForAsk } from "./similar.ts";
import type { AskAdvice } from "./stats/ask-advice.ts";
import { adviceForAsk } from "./stats/box-stats.ts";
import type { ZoneSource } from "./stats/stats-clock.ts";

/** What the reply is read against: the box's time zone and what holds a question back. */
export interface AskReplyContext {
  /** The zone whose hour of day the expected wait is looked up in. */
  timeZone: string | ZoneSource;
  /** Until when a pending question waits to be shown (slot/held.ts); none: never held. */
  heldUntil?: OutcomeContext["heldUntil"];
}

export interface AskReply extends AskAdvice {
  id: string;
  /** True when an open question was the same and is returned: nothing was filed. */
  deduplicated: boolean;
  card: Question;
  /** The commit that filed it; absent when nothing was filed. */
  commit?: string;
  similar: SimilarQuestion[];
  heldUntil?: string;
}

type Advice = Pick<AskReply, "expectedWaitSeconds" | "hint" | "similar" | "heldUntil">;

function adviceOf(core: Core, context: AskReplyContext, filed: { id: string; card: Question }) {
  const advice: Advice = {
    ...adviceForAsk(core, context.timeZone, filed.card.prompt),
    similar: similarForAsk(core, filed.id, filed.card),
  };
  const held = context.heldUntil?.(filed);
  if (held !== undefined) advice.heldUntil = held;
  return advice;
}

/**
 * Files the question (or finds it open, with unlessOpen) and makes its reply. A reply that
 * fails is thrown once the question is filed, as when it was made after the commit: it never
 * stops the commit.
 */
export async function askWithReply(
  core: Core,
  context: AskReplyContext,
  input: unknown,
  options: Omit<AskOptions, "meanwhile">,
): Promise<AskReply> {
  let made: { advice: Advice } | { error: unknown } | undefined;
  const result = await askQuestion(core, input, {
    ...options,
    meanwhile: (filed) => {
      try {
        made = { advice: adviceOf(core, context, filed) };
      } catch (error) {
        made = { error };
      }
    },
  });
  if (made && "error" in made) throw made.error;
  const { id, deduplicated, card, commit } = result;
  return {
    id,
    deduplicated,
    card,
    ...(commit === undefined ? {} : { commit }),
    ...(made?.advice ?? adviceOf(core, context, result)),
  };
}
