// The answers to an AskUserQuestion set, as Claude Code takes them: allow, with `updatedInput`
// the tool's input as given plus `answers`, an object from each question's text to the label
// picked (several labels of a multi-select joined by ", "; the boxholder's own words as the
// text itself), and `annotations` for a note given with an answer (code.claude.com/docs/en/
// hooks "AskUserQuestion", code.claude.com/docs/en/agent-sdk/user-input "Response format",
// the SDK's `AskUserQuestionInput.answers` and `.annotations`). A set is answered whole or not
// at all: a partly answered set is refused, never sent. Pure.

import { OTHER_OPTION } from "../../card/question.ts";
import { InvalidAnswer, InvalidInput } from "../../errors.ts";
import type { HookDecision } from "../agent-decision.ts";
import { type QuestionDraft, type QuestionSet, shownLabel } from "./ask-user-question.ts";

/** What joins several labels (and own words) in one answer, as the Agent SDK documents it. */
export const ANSWER_SEPARATOR = ", ";

/** The boxholder's answer to one question: labels picked, own words, or both (multi-select). */
export interface QuestionAnswer {
  labels: string[];
  ownWords?: string | undefined;
  note?: string | undefined;
}

/** The answer a question's card recorded: the option ids picked (comma-joined) and the text. */
export interface RecordedAnswer {
  text: string;
  selected?: string | undefined;
  note?: string | undefined;
}

/**
 * The answer to one draft from what its card recorded. The card offers the draft's options in
 * order (their labels as shown) with the own-words option last, so a multi-select's text is the
 * picked labels as shown joined by ", " followed by the own words.
 */
export function answerOfRecorded(draft: QuestionDraft, recorded: RecordedAnswer): QuestionAnswer {
  const ids = (recorded.selected ?? "").split(",").filter((id) => id !== "");
  if (ids.length === 0) {
    throw new InvalidAnswer(recorded.text, `a pick among the options of "${draft.prompt}"`);
  }
  const labels = ids
    .filter((id) => id !== OTHER_OPTION)
    .map((id) => {
      const option = draft.options.find((o) => o.id === id);
      if (!option) throw new InvalidAnswer(id, `an option of "${draft.prompt}"`);
      return option.label;
    });
  const note = recorded.note?.trim() || undefined;
  if (!ids.includes(OTHER_OPTION)) return { labels, note };
  const prefix = labels.map(shownLabel).join(ANSWER_SEPARATOR);
  const lead = labels.length > 0 ? prefix + ANSWER_SEPARATOR : "";
  if (!recorded.text.startsWith(lead)) {
    throw new InvalidAnswer(recorded.text, `the picked labels followed by the own words`);
  }
  return { labels, ownWords: recorded.text.slice(lead.length), note };
}

/** The one text Claude Code reads for a question, after checking the answer fits the draft. */
function answerText(draft: QuestionDraft, answer: QuestionAnswer): string {
  const own = answer.ownWords?.trim();
  const parts = draft.options.filter((o) => answer.labels.includes(o.label)).map((o) => o.label);
  const unknown = answer.labels.find((label) => !draft.options.some((o) => o.label === label));
  if (unknown !== undefined) {
    throw new InvalidAnswer(unknown, `one of the labels of "${draft.prompt}"`);
  }
  if (own) parts.push(own);
  if (parts.length === 0 || (!draft.multi && parts.length > 1)) {
    const expected = draft.multi ? "one or more picks" : "exactly one pick or own words";
    throw new InvalidAnswer(parts.join(ANSWER_SEPARATOR), `${expected} for "${draft.prompt}"`);
  }
  return parts.join(ANSWER_SEPARATOR);
}

/** Allow, with every question's answer; refuses a set that is not answered whole. */
export function answersDecision(
  set: QuestionSet,
  answers: QuestionAnswer[],
): Extract<HookDecision, { behavior: "allow" }> {
  if (answers.length !== set.drafts.length) {
    throw new InvalidInput(
      `${answers.length} of the ${set.drafts.length} questions are answered: Claude Code takes the set whole, so nothing is sent until every question has its answer`,
    );
  }
  const texts: Record<string, string> = {};
  const notes: Record<string, { notes: string }> = {};
  set.drafts.forEach((draft, i) => {
    const answer = answers[i] as QuestionAnswer;
    texts[draft.prompt] = answerText(draft, answer);
    const note = answer.note?.trim();
    if (note) notes[draft.prompt] = { notes: note };
  });
  const updatedInput: Record<string, unknown> = { ...set.input, answers: texts };
  if (Object.keys(notes).length > 0) {
    const given = set.input.annotations;
    const before = given && typeof given === "object" ? (given as Record<string, unknown>) : {};
    updatedInput.annotations = { ...before, ...notes };
  }
  return { behavior: "allow", updatedInput };
}
