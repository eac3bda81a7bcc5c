// The marks a coding agent's own prompt carries on its card (`kind`, an elicitation's
// `requested-schema`, a permission's whole `request`), put on by the ask core for the hooks and
// `request_permission` only: an asker's card never carries them (AskSchema refuses them).

import {
  describeIssues,
  type Question,
  type QuestionKind,
  QuestionSchema,
} from "../card/question.ts";
import { InvalidInput } from "../errors.ts";

export interface AgentPrompt {
  kind: QuestionKind;
  /** An elicitation's form, checked against every answer before it is recorded. */
  requestedSchema?: Record<string, unknown> | undefined;
  /** A permission's whole request: an allow is recorded only where it was shown whole. */
  request?: string | undefined;
}

/** The card with an agent prompt's marks, checked as every loaded card is. */
export function marked(card: Question, prompt: AgentPrompt | undefined): Question {
  if (!prompt) return card;
  const withMarks = {
    ...card,
    kind: prompt.kind,
    ...(prompt.requestedSchema ? { "requested-schema": prompt.requestedSchema } : {}),
    ...(prompt.request !== undefined ? { request: prompt.request } : {}),
  };
  const checked = QuestionSchema.safeParse(withMarks);
  if (!checked.success) {
    throw new InvalidInput(`the question is not valid: ${describeIssues(checked.error)}`);
  }
  return withMarks as Question;
}
