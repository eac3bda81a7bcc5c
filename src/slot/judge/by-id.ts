// The judge's path for an answer to a question named by its id, where no presentation was shown
// on a chat: the web form, the API, the CLI. Who: the proof, resolved as for every attempt
// (who.ts). Which: the version of the card the answer names (the page's `shown`, --expect,
// If-Match) must still be the card's; an answer that names none is read against the card as
// it was filed, and a letter or a label is refused once the card was edited since (it may mean
// another option now), unless it names the option by id. Needs no slot: the adapter tells the
// serving slot of the answer.

import { questionFingerprint } from "../../card/fingerprint.ts";
import { type Answer, optionsOf, type Question } from "../../card/question.ts";
import { type AnswerAttempt, attemptFromText } from "../../card/resolve.ts";
import { CardChanged, NotOwnSurface, VersionNeeded } from "../../errors.ts";
import {
  ANSWERABLE,
  type AnswerResult,
  answerQuestion,
  verbatimOf,
} from "../../questions/answer.ts";
import { filedFingerprint } from "../../questions/as-filed.ts";
import { safeAudit } from "../../questions/audit.ts";
import type { Core } from "../../questions/core.ts";
import type { LoadedQuestion } from "../../questions/store.ts";
import { loadCommitted } from "../../questions/transition.ts";
import type { Reason } from "./attempt.ts";
import { bookOf } from "./book.ts";
import type { From, Who } from "./proof.ts";
import { STRANGER_REPLY } from "./taps.ts";
import { mayAct, whoActed } from "./who.ts";

/**
 * The version of the card an answer names: `shown` (the fingerprint the page, `show --json` or
 * the ETag gave), or none, with how the surface names a version (for the refusal that asks).
 */
export type Version = { kind: "shown"; hash: string } | { kind: "none"; say: string };

/** An answer to a question named by id. */
export interface AnswerByIdAttempt {
  kind: "answer";
  from: From;
  questionId: string;
  answer: AnswerAttempt;
  version: Version;
}

export type AnswerVerdict =
  | { kind: "recorded"; name: "answered"; reply: string; answer: Answer; result: AnswerResult }
  | { kind: "refused"; name: string; reason: Reason; reply: string; error: unknown };

const CHANGED_REPLY =
  "This question was edited after you opened it; nothing was recorded. Read it again and answer anew.";

/**
 * Decides and records the answer. A refusal carries the core's error (`error`) for the
 * surface's own words; the judge audits what it refuses itself, the transition what it refuses.
 */
export async function judgeAnswer(core: Core, a: AnswerByIdAttempt): Promise<AnswerVerdict> {
  const who = whoActed(a.from, bookOf(core));
  let check: (card: Question) => void;
  try {
    check = await checksBefore(core, a, who);
  } catch (error) {
    const refused = refusal(error);
    audit(core, a, who, refused);
    return refused;
  }
  try {
    const result = await answerQuestion(
      core,
      a.questionId,
      a.answer,
      { via: who.via, by: who.by },
      // Inside the question's lock: the version again, and who may answer the card as it is then.
      { fingerprint: a.version.kind === "shown" ? a.version.hash : undefined, recheck: check },
    );
    const reply = `✅ Recorded: ${result.answer.text}`;
    return { kind: "recorded", name: "answered", reply, answer: result.answer, result };
  } catch (error) {
    // Refused inside the lock: the transition audited it.
    return refusal(error);
  }
}

/**
 * The judge's checks before any lock, throwing what refuses the answer; returns the check to run
 * again inside the lock. A card that cannot be read, or one closed to answers, is left to the
 * transition, which names why.
 */
async function checksBefore(
  core: Core,
  a: AnswerByIdAttempt,
  who: Who,
): Promise<(card: Question) => void> {
  if (who.trust === "stranger") throw new Stranger();
  let loaded: LoadedQuestion;
  try {
    loaded = await loadCommitted(core, a.questionId);
  } catch {
    return () => undefined;
  }
  const mayAnswer = (card: Question) => {
    const refused = mayAct(who, "answer", { id: a.questionId, card });
    if (refused?.reason === "not-own-surface") throw refused.error;
  };
  mayAnswer(loaded.card);
  if (!(ANSWERABLE as readonly string[]).includes(loaded.card.status)) return mayAnswer;
  const { version } = a;
  if (version.kind === "shown") {
    if (questionFingerprint(loaded.card) !== version.hash) {
      throw new CardChanged(a.questionId, "answer");
    }
    return mayAnswer;
  }
  if (!mayMeanAnother(loaded.card, a.answer)) return mayAnswer;
  const filed = (await filedFingerprint(core, loaded.rel)) ?? questionFingerprint(loaded.card);
  const asFiled = (card: Question) => {
    mayAnswer(card);
    const now = questionFingerprint(card);
    if (now !== filed) throw new VersionNeeded(a.questionId, now, version.say);
  };
  asFiled(loaded.card);
  return asFiled;
}

/**
 * True when the words could name another option on an edited card: a letter or a label of the
 * asker's options. An option named by its id (a radio, the id typed as it is) means that option
 * whatever was edited; yes/no and free text name no option of the asker's.
 */
function mayMeanAnother(card: Question, given: AnswerAttempt): boolean {
  if (!card.input.options?.length || given.option !== undefined) return false;
  const { text } = given.note || given.other ? given : attemptFromText(card, given.text);
  return !optionsOf(card).some((option) => option.id === text.trim());
}

/** A stranger's answer: refused before anything is read. */
class Stranger extends Error {}

function refusal(error: unknown): AnswerVerdict & { kind: "refused" } {
  if (error instanceof Stranger) {
    return {
      kind: "refused",
      name: "refused:stranger",
      reason: "stranger",
      reply: STRANGER_REPLY,
      error: undefined,
    };
  }
  if (error instanceof NotOwnSurface) {
    const reply = `Not recorded: ${error.message}.`;
    return {
      kind: "refused",
      name: "refused:not-own-surface",
      reason: "not-own-surface",
      reply,
      error,
    };
  }
  if (error instanceof CardChanged || error instanceof VersionNeeded) {
    return {
      kind: "refused",
      name: "refused:changed",
      reason: "changed",
      reply: CHANGED_REPLY,
      error,
    };
  }
  return {
    kind: "refused",
    name: "refused:error",
    reason: "error",
    reply: "Nothing was recorded.",
    error,
  };
}

/** The audit line of a refusal the judge made before any lock. */
function audit(core: Core, a: AnswerByIdAttempt, who: Who, verdict: AnswerVerdict): void {
  const { error } = verdict as { error?: unknown };
  const detail = error instanceof Error ? error.message : verdict.reply;
  safeAudit(core, {
    at: core.box.clock.iso(),
    questionId: a.questionId,
    surface: who.via,
    actor: who.by,
    action: "answer",
    verbatim: verbatimOf(a.answer),
    outcome: verdict.name,
    detail: who.why ? `${detail} (${who.why})` : detail,
  });
}
