// A waiting permission question answered by a grant the boxholder gave on another question of
// the same agent session ("Allow for this session", or an "Always allow" rule): the grant's
// own decision, recorded as this question's answer through the transition core, in its own
// commit, with an audit line naming the grant. Only a pending permission question is covered;
// a question answered, dismissed or withdrawn first keeps what it got (exactly one answer wins
// under the question's lock). It never answers an ordinary question, and never one the grant
// does not cover: the caller decides coverage (src/hooks/grant-pattern.ts), this records it.

import { rewriteCardText } from "../card/codec.ts";
import { isPermissionQuestion } from "../card/question.ts";
import { InvalidInput } from "../errors.ts";
import type { Core } from "./core.ts";
import { withQuestionTransition } from "./transition.ts";

/** The surface a grant's answers are recorded under (`answered-via: grant`). */
export const GRANT_SURFACE = "grant";

export interface GrantCover {
  /** The grant's id: the card's `answered-by` and the audit line's detail. */
  grant: string;
  /** The option the grant stands for (the permission's "allow once"). */
  selected: string;
  /** The answer's words, as every surface shows them. */
  text: string;
  /** Who the grant belongs to, for the audit (agent:session). */
  actor: string;
}

/** Records the grant's answer on the pending permission question `id`; returns the commit. */
export async function answerByGrant(core: Core, id: string, cover: GrantCover): Promise<string> {
  const { commit } = await withQuestionTransition(core, id, "answer", ["pending"], (current) => {
    if (!isPermissionQuestion(current.card)) {
      throw new InvalidInput(`question "${id}" is not a permission: a grant answers none other`);
    }
    if (!current.card.input.options?.some((option) => option.id === cover.selected)) {
      throw new InvalidInput(`question "${id}" has no option "${cover.selected}" to allow with`);
    }
    const at = core.box.clock.iso();
    const answer = { text: cover.text, selected: cover.selected };
    return {
      plan: {
        writes: [
          {
            rel: current.rel,
            content: rewriteCardText(current.text, {
              status: "answered",
              answer,
              "answered-at": at,
              "answered-via": GRANT_SURFACE,
              "answered-by": cover.grant,
            }),
          },
        ],
        message: `answer: ${current.card.prompt.replace(/\s+/g, " ").slice(0, 60)}`,
        trailers: { "Answered-Via": GRANT_SURFACE, Grant: cover.grant, Question: id },
        record: {
          at,
          questionId: id,
          surface: GRANT_SURFACE,
          actor: cover.actor,
          action: "answer",
          verbatim: `covered by grant ${cover.grant}`,
          resolvedTo: `${cover.selected}: ${cover.text}`,
          outcome: "applied",
        },
      },
      value: undefined,
    };
  });
  return commit;
}
