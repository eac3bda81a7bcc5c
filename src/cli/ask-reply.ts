// `qbridge ask`'s reply beside the question's id: the advice on asking, the answered questions
// like it and until when it waits. Made while git commits the card (askQuestion's meanwhile):
// it needs the card and the ledger, not the commit, and the process would otherwise sit idle
// waiting for git. A question found open already (--unless-open) gets it made after.

import type { Question } from "../card/question.ts";
import type { Config } from "../config.ts";
import { type AskOptions, type AskResult, askQuestion } from "../questions/ask.ts";
import { adviceForAsk } from "../questions/box-stats.ts";
import type { Core } from "../questions/core.ts";
import { similarForAsk } from "../questions/similar.ts";
import { heldField, heldUntilOf } from "../slot/held.ts";

function replyOf(core: Core, config: Config, filed: { id: string; card: Question }) {
  return {
    ...adviceForAsk(core, config, filed.card.prompt),
    similar: similarForAsk(core, filed.id, filed.card),
    ...heldField(heldUntilOf(core, config.attention)(filed)),
  };
}

export type AskReply = ReturnType<typeof replyOf>;

/**
 * Files the question and makes its reply. A reply that fails is thrown once the question is
 * filed, as when the reply was made after the commit: it never stops the commit.
 */
export async function askWithReply(
  core: Core,
  config: Config,
  input: unknown,
  options: Omit<AskOptions, "meanwhile">,
): Promise<{ result: AskResult; reply: AskReply }> {
  let made: { reply: AskReply } | { error: unknown } | undefined;
  const result = await askQuestion(core, input, {
    ...options,
    meanwhile: (filed) => {
      try {
        made = { reply: replyOf(core, config, filed) };
      } catch (error) {
        made = { error };
      }
    },
  });
  if (made && "error" in made) throw made.error;
  return { result, reply: made?.reply ?? replyOf(core, config, result) };
}
