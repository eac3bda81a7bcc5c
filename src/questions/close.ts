// Dismissing (the boxholder declines) and expiring (the aging sweep) a pending question.
// Both keep the question answerable later; neither writes a job.

import { rewriteCardText } from "../card/codec.ts";
import type { Question } from "../card/question.ts";
import { DeadlineMoved } from "../errors.ts";
import type { Surface } from "./answer.ts";
import { auditRefused } from "./audit.ts";
import type { Core } from "./core.ts";
import { withQuestionTransition } from "./transition.ts";

export interface CloseResult {
  id: string;
  at: string;
  commit: string;
}

export async function dismissQuestion(
  core: Core,
  id: string,
  surface: Surface,
): Promise<CloseResult> {
  const at = core.box.clock.iso();
  /** What its audit line says, applied or refused. */
  const audit = { at, questionId: id, surface: surface.via, actor: surface.by, action: "dismiss" };
  try {
    const { commit } = await withQuestionTransition(
      core,
      id,
      "dismiss",
      ["pending"],
      (current) => ({
        plan: {
          writes: [
            {
              rel: current.rel,
              content: rewriteCardText(current.text, { status: "dismissed", "dismissed-at": at }),
            },
          ],
          message: `dismiss: ${current.card.prompt.replace(/\s+/g, " ").slice(0, 60)}`,
          trailers: { "Dismissed-Via": surface.via, Question: id },
          record: { ...audit, outcome: "applied" },
        },
        value: undefined,
      }),
    );
    return { id, at, commit };
  } catch (error) {
    auditRefused(core, audit, error);
    throw error;
  }
}

export async function expireQuestion(
  core: Core,
  id: string,
  by = "question-aging",
  /**
   * Asked again of the card as it is under the lock (the sweep's "past its deadline"): the
   * sweep decided on the card it scanned, and an extension may have landed since.
   */
  due?: (card: Question) => boolean,
): Promise<CloseResult> {
  const at = core.box.clock.iso();
  const { commit } = await withQuestionTransition(core, id, "expire", ["pending"], (current) => {
    if (due && !due(current.card)) throw new DeadlineMoved(id, current.card["expires-after"]);
    return {
      plan: {
        writes: [
          {
            rel: current.rel,
            content: rewriteCardText(current.text, { status: "expired", "expired-at": at }),
          },
        ],
        message: `expire: ${current.card.prompt.replace(/\s+/g, " ").slice(0, 60)}`,
        trailers: { "Expired-By": by, Question: id },
        record: { at, questionId: id, surface: by, action: "expire", outcome: "applied" },
      },
      value: undefined,
    };
  });
  return { id, at, commit };
}
