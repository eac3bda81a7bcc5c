// The card one question of Claude Code's AskUserQuestion set becomes: the agent's own question
// as the prompt, its header and each option's description in the memo under the labels, its
// options as a select (or a multiselect where it allows several), its own-words option last as
// `_other`, and never an allow for the session or always: it is a question, not a permission.
// Hidden characters in the agent's words are spelled out on the card; the answer goes back
// keyed by the question exactly as asked (question-answers.ts). Pure.

import { visibleLine } from "../../card/agent-text.ts";
import { formatDuration } from "../../card/duration.ts";
import { draftInput, draftLines, type QuestionDraft } from "./ask-user-question.ts";

export interface QuestionPlace {
  /** Its place in the set, from 0, and the set's size. */
  index: number;
  count: number;
}

function headLine(asker: string, place: QuestionPlace): string {
  if (place.count === 1) return `${asker} asks you this in its own words.`;
  return `${asker} asks you ${place.count} questions in its own words; this is question ${place.index + 1} of ${place.count}. It goes on once all ${place.count} are answered.`;
}

/** The card of one draft; `asker` is the agent's name in words. */
export function questionCard(
  draft: QuestionDraft,
  place: QuestionPlace,
  asker: string,
  timeoutSeconds: number,
): Record<string, unknown> {
  const lines = [headLine(asker, place), "", ...draftLines(draft).map(visibleLine)];
  return {
    prompt: visibleLine(draft.prompt),
    memo: lines.join("\n"),
    input: draftInput(draft),
    directive: `Nothing to do on the box: ${asker} waits for the answer and goes on with it.`,
    "while-waiting": `${asker} waits for your answer.`,
    "expires-after": formatDuration(timeoutSeconds * 1000),
    "asked-by": `${asker} (AskUserQuestion)`,
  };
}
