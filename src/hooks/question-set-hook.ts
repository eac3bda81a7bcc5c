// A set of an agent's own questions (Claude Code's AskUserQuestion) asked on the phone: one
// card per question, filed together under the hook's lease in the set's order (their ids and
// one `asked-at` keep that order in the slot, which presents them one at a time), waited on in
// order, and answered to the agent only whole: allow with the questions echoed and every
// answer (question-answers.ts). A question dismissed, withdrawn or expired, or the hook's end,
// withdraws every other question of the set, and nothing is sent but a deny for a dismissal: a
// partly answered set is never sent. Never allowed by a grant, never without `updatedInput`.

import { randomBytes } from "node:crypto";
import { askQuestion, validateAsk } from "../questions/ask.ts";
import type { Core } from "../questions/core.ts";
import type { QuestionOutcome } from "../questions/outcome.ts";
import type { AgentDecision } from "./agent-decision.ts";
import type { AgentRoom } from "./agents/room.ts";
import type { QuestionSet } from "./claude/ask-user-question.ts";
import {
  answerOfRecorded,
  answersDecision,
  type QuestionAnswer,
} from "./claude/question-answers.ts";
import { questionCard } from "./claude/question-card.ts";
import { type FileQuestion, fileSetUnderLease } from "./filing.ts";
import { ENDED_REASONS, waitWhileHookLives, withdrawUnlessDecided } from "./hook-wait.ts";
import type { HookLifetime } from "./lifetime.ts";

export interface QuestionSetOptions {
  timeoutSeconds: number;
  lifetime: HookLifetime;
  print: (value: Record<string, unknown>) => void;
  tell: (line: string) => void;
}

type SetEnd =
  | { kind: "answered"; answers: QuestionAnswer[] }
  | { kind: "unanswered"; outcome: QuestionOutcome };

/**
 * One filing per question: ordered ids under one base, one `asked-at` for all. Every card is
 * checked first: a set with one card that cannot be filed files nothing, never a part of it.
 */
function filings(core: Core, room: AgentRoom, set: QuestionSet, timeout: number): FileQuestion[] {
  const askedAt = core.box.clock.iso();
  const base = `${askedAt.slice(0, 10)}-${room.name}-asks-${randomBytes(3).toString("hex")}`;
  const count = set.drafts.length;
  const cards = set.drafts.map((draft, index) => {
    const card = questionCard(draft, { index, count }, room.label, timeout);
    const asked = { ...card, id: `${base}-${index + 1}`, "asked-at": askedAt };
    validateAsk(asked);
    return asked;
  });
  return cards.map(
    (asked) => (meanwhile) =>
      askQuestion(core, asked, { via: "hook", agentPrompt: { kind: "question" }, meanwhile }),
  );
}

/** Why the rest of a set is withdrawn, in the words every surface shows. */
function restReason(outcome: QuestionOutcome, lifetime: HookLifetime): string {
  const ended = lifetime.ended();
  if (ended) return ENDED_REASONS[ended];
  if (outcome.status === "dismissed") return "another question of this set was set aside";
  return "another question of this set ended unanswered";
}

/** The answers in order, or the outcome that ended the set (the rest then withdrawn). */
async function answersOf(
  core: Core,
  set: QuestionSet,
  ids: string[],
  lifetime: HookLifetime,
): Promise<SetEnd> {
  const answers: QuestionAnswer[] = [];
  for (const [index, id] of ids.entries()) {
    const outcome = await waitWhileHookLives(core, id, lifetime);
    const draft = set.drafts[index];
    if (draft && outcome.status === "answered" && outcome.answer) {
      answers.push(answerOfRecorded(draft, outcome.answer));
      continue;
    }
    const reason = restReason(outcome, lifetime);
    for (const other of ids) if (other !== id) await withdrawUnlessDecided(core, other, reason);
    return { kind: "unanswered", outcome };
  }
  return { kind: "answered", answers };
}

function decisionOf(set: QuestionSet, end: SetEnd): AgentDecision | undefined {
  if (end.kind === "answered") return answersDecision(set, end.answers);
  if (end.outcome.status !== "dismissed") return undefined;
  const message = `The owner set your question aside on their phone without answering (question ${end.outcome.id}). Do not assume an answer: go on without it or ask differently.`;
  return { behavior: "deny", message };
}

export async function runQuestionSet(
  core: Core,
  room: AgentRoom,
  set: QuestionSet,
  options: QuestionSetOptions,
): Promise<void> {
  const files = filings(core, room, set, options.timeoutSeconds);
  const filed = await fileSetUnderLease(core, options.lifetime, room.label, files, options.tell);
  if (!filed) return;
  const end = await answersOf(core, set, filed.ids, options.lifetime);
  const decision = decisionOf(set, end);
  if (decision) options.print(room.writePermission(decision));
  if (end.kind === "unanswered" && end.outcome.status === "dismissed") {
    await withdrawUnlessDecided(
      core,
      end.outcome.id,
      "dismissed on the phone: the agent was told no",
    );
  }
  await filed.lease.release();
}
