// Answering a question from any surface: resolve the attempt against the card as it is now
// (inside the lock), write the follow-up job, then the answered card, in one commit. A coding
// agent's own prompt (a permission, a form) writes no job: its answer goes to the agent process
// that waits for it; a form's answer must first fit the form (fields-check.ts). Who may answer
// is the judge's to decide (src/slot/judge/who.ts) before it calls here; this file takes the
// surface it is given.

import { rewriteCardText } from "../card/codec.ts";
import { shownAsIs } from "../card/fingerprint.ts";
import { jobFileText } from "../card/job.ts";
import { type Answer, isAgentPrompt, type Question } from "../card/question.ts";
import { type AnswerAttempt, resolveAnswer } from "../card/resolve.ts";
import { CardChanged, InvalidInput } from "../errors.ts";
import { auditRefused } from "./audit.ts";
import type { Core } from "./core.ts";
import { checkFields } from "./fields-check.ts";
import type { LoadedQuestion } from "./store.ts";
import { type Plan, withQuestionTransition } from "./transition.ts";

export const ANSWERABLE = ["pending", "dismissed", "expired"] as const;

export interface Surface {
  /** cli, web, api, telegram, terminal, ... */
  via: string;
  /** Who answered on that surface (a Telegram user id, a login), when known. */
  by?: string | undefined;
}

export interface AnswerResult {
  id: string;
  answer: Answer;
  previous: Question["status"];
  answeredAt: string;
  /** The follow-up job written; none for a coding agent's own prompt. */
  jobRel: string | undefined;
  commit: string;
}

/** The words of an attempt as the audit keeps them. */
export function verbatimOf(attempt: AnswerAttempt): string {
  return [attempt.text, attempt.other, attempt.note]
    .filter((part) => part !== undefined && part !== "")
    .join(" | ");
}

function answerText(answer: Answer): string {
  return answer.selected ? `${answer.selected}: ${answer.text}` : answer.text;
}

export interface AnswerOptions {
  /**
   * The fingerprint (src/card/fingerprint.ts) of the question as the boxholder saw it. Checked
   * inside the question's lock: an edit between showing and answering refuses the answer, and
   * so does a fingerprint that names no card (an empty one is never a pass).
   */
  fingerprint?: string | undefined;
  /**
   * More of the card that must be as the boxholder saw it, checked inside the lock after the
   * fingerprint: throws to refuse. Triage uses it for the status and the recommendation it
   * listed; the judge for who may answer the card as it is then, and its version.
   */
  recheck?: ((card: Question) => void) | undefined;
}

/** Records the attempt as the answer, with its follow-up job, in one commit; audits a refusal. */
export async function answerQuestion(
  core: Core,
  id: string,
  attempt: AnswerAttempt,
  surface: Surface,
  options: AnswerOptions = {},
): Promise<AnswerResult> {
  if (!/^[a-z][a-z0-9-]{0,31}$/.test(surface.via)) {
    throw new InvalidInput(`"${surface.via}" is not a surface name`);
  }
  const request = { id, attempt, surface, options, verbatim: verbatimOf(attempt) };
  try {
    const result = await withQuestionTransition(core, id, "answer", ANSWERABLE, (current) =>
      planAnswer(core, current, request),
    );
    return { id, ...result.value, commit: result.commit };
  } catch (error) {
    auditRefused(
      core,
      {
        at: core.box.clock.iso(),
        questionId: id,
        surface: surface.via,
        actor: surface.by,
        action: "answer",
        verbatim: request.verbatim,
      },
      error,
    );
    throw error;
  }
}

/** One answer attempt as answerQuestion was given it, with its words as the audit keeps them. */
interface AnswerRequest {
  id: string;
  attempt: AnswerAttempt;
  surface: Surface;
  options: AnswerOptions;
  verbatim: string;
}

type Answered = Omit<AnswerResult, "id" | "commit">;

/** Inside the lock: refuses what the card as it is now does not allow, else plans the commit. */
function planAnswer(
  core: Core,
  current: LoadedQuestion,
  { id, attempt, surface, options, verbatim }: AnswerRequest,
): ReturnType<Plan<Answered>> {
  if (options.fingerprint !== undefined && !shownAsIs(current.card, options.fingerprint)) {
    throw new CardChanged(id, "answer");
  }
  options.recheck?.(current.card);
  const answer = resolveAnswer(current.card, attempt);
  if (current.card.kind === "elicitation") checkFields(current.card, answer);
  const answeredAt = core.box.clock.iso();
  const jobRel = isAgentPrompt(current.card) ? undefined : core.box.paths.jobRel(id);
  const job = jobRel && jobText(id, current, answer, answeredAt, surface);
  const card = rewriteCardText(current.text, {
    status: "answered",
    answer,
    "answered-at": answeredAt,
    "answered-via": surface.via,
    "answered-by": surface.by,
    "answered-after": current.card.status === "pending" ? undefined : current.card.status,
    "dismissed-at": undefined,
    "expired-at": undefined,
  });
  return {
    plan: {
      writes: [
        ...(jobRel && job ? [{ rel: jobRel, content: job }] : []),
        { rel: current.rel, content: card },
      ],
      message: `answer: ${current.card.prompt.replace(/\s+/g, " ").slice(0, 60)}`,
      trailers: { "Answered-Via": surface.via, Question: id },
      record: {
        at: answeredAt,
        questionId: id,
        surface: surface.via,
        actor: surface.by,
        action: "answer",
        verbatim,
        resolvedTo: answerText(answer),
        outcome: "applied",
      },
    },
    value: { answer, answeredAt, jobRel, previous: current.card.status },
  };
}

/** The follow-up job's file text for this answer. */
function jobText(
  id: string,
  current: LoadedQuestion,
  answer: Answer,
  answeredAt: string,
  surface: Surface,
): string {
  return jobFileText({
    id,
    questionPath: current.rel,
    card: current.card,
    answer,
    answeredAt,
    answeredVia: surface.via,
    answeredBy: surface.by,
    answeredAfter:
      current.card.status === "dismissed" || current.card.status === "expired"
        ? current.card.status
        : undefined,
  });
}
