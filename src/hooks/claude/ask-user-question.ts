// Claude Code's AskUserQuestion, as its PermissionRequest hook hands it over: `tool_input`
// holds 1 to 4 questions, each with its text, a header of up to 12 characters, 2 to 4 options
// (a label, a description, an optional preview) and `multiSelect` (code.claude.com/docs/en/
// hooks, "AskUserQuestion"; the Agent SDK's `AskUserQuestionInput` in sdk-tools.d.ts). Each
// question becomes one neutral draft in the agent's own words: its options with their
// descriptions, one or several picks, and an "own words" option as the card's `_other`.
// Pure. Never invents, reorders or rewords an option: the labels go back to the agent as given.

import { z } from "zod";
import { visibleLine } from "../../card/agent-text.ts";
import { describeIssues, OTHER_OPTION } from "../../card/question.ts";
import { InvalidInput } from "../../errors.ts";

/** The header's documented limit (a chip in Claude Code's dialog). */
export const HEADER_CHARS = 12;

/** The label of the "own words" option, as Claude Code's dialog offers "Other". */
export const OWN_WORDS_LABEL = "Other (type your own answer)";

const OptionSchema = z
  .object({
    label: z.string().refine((t) => t.trim() !== "", "an option needs a label"),
    description: z.string().optional(),
    preview: z.string().optional(),
  })
  .passthrough();

const QuestionSchema = z
  .object({
    question: z.string().refine((t) => t.trim() !== "", "a question needs its text"),
    header: z.string().max(HEADER_CHARS, `a header has at most ${HEADER_CHARS} characters`),
    options: z.array(OptionSchema).min(2, "2 to 4 options").max(4, "2 to 4 options"),
    multiSelect: z.boolean().optional(),
  })
  .passthrough();

const InputSchema = z
  .object({
    questions: z.array(QuestionSchema).min(1, "1 to 4 questions").max(4, "1 to 4 questions"),
  })
  .passthrough();

/** One option of a draft: the card's id for it, and the agent's words exactly as given. */
export interface DraftOption {
  id: string;
  label: string;
  description: string | undefined;
}

/** One question of the set, ready to become a card: one pick, or several. */
export interface QuestionDraft {
  /** The question's text: the prompt, and the key of its answer. */
  prompt: string;
  header: string;
  multi: boolean;
  options: DraftOption[];
  /** Always offered last: the boxholder's own words instead of (or beside) the options. */
  ownWords: { id: typeof OTHER_OPTION; label: string };
}

/** The set as Claude Code asked it: its drafts, and its input kept as given for the answer. */
export interface QuestionSet {
  drafts: QuestionDraft[];
  /** `tool_input` as it arrived; the decision echoes it with `answers` added. */
  input: Record<string, unknown>;
}

/**
 * An option's label as its card shows it: one line, hidden characters spelled out, trimmed as
 * the card keeps it. The answer still names the label as given (by the option's id).
 */
export function shownLabel(label: string): string {
  return visibleLine(label).trim();
}

/** The id of the option at an index: letters, digits and '-' only, never a letter alone. */
export function optionId(index: number): string {
  return `option-${index + 1}`;
}

function repeated(texts: string[]): string | undefined {
  const seen = new Set<string>();
  for (const text of texts) {
    const key = text.trim().toLowerCase();
    if (seen.has(key)) return text;
    seen.add(key);
  }
  return undefined;
}

/** Each answer is keyed by its question's text and names labels: both must be unambiguous. */
function checkUnambiguous(questions: z.infer<typeof QuestionSchema>[]): void {
  const question = repeated(questions.map((q) => q.question));
  if (question !== undefined) {
    throw new InvalidInput(
      `the AskUserQuestion input asks "${question}" twice: its answers are keyed by the question's text, so each must be asked once; Claude Code asks at its own screen`,
    );
  }
  for (const q of questions) {
    const label = repeated([...q.options.map((o) => shownLabel(o.label)), OWN_WORDS_LABEL]);
    if (label !== undefined) {
      throw new InvalidInput(
        `the AskUserQuestion question "${q.question}" offers the label "${label}" twice: an answer names its label, so labels must differ; Claude Code asks at its own screen`,
      );
    }
  }
}

/** The set of questions in an AskUserQuestion `tool_input`; an InvalidInput names what is wrong. */
export function parseQuestionSet(toolInput: Record<string, unknown>): QuestionSet {
  const result = InputSchema.safeParse(toolInput);
  if (!result.success) {
    throw new InvalidInput(
      `the AskUserQuestion input is not as Claude Code documents it: ${describeIssues(result.error)}`,
    );
  }
  const questions = result.data.questions;
  checkUnambiguous(questions);
  const drafts = questions.map(
    (q): QuestionDraft => ({
      prompt: q.question,
      header: q.header,
      multi: q.multiSelect === true,
      options: q.options.map((o, i) => ({
        id: optionId(i),
        label: o.label,
        description: o.description?.trim() || undefined,
      })),
      ownWords: { id: OTHER_OPTION, label: OWN_WORDS_LABEL },
    }),
  );
  return { drafts, input: toolInput };
}

/** The card input of a draft: a select, or a multiselect, with the own-words option last. */
export function draftInput(draft: QuestionDraft): {
  type: "select" | "multiselect";
  options: { id: string; label: string }[];
} {
  return {
    type: draft.multi ? "multiselect" : "select",
    options: [
      ...draft.options.map(({ id, label }) => ({ id, label: shownLabel(label) })),
      draft.ownWords,
    ],
  };
}

/** The options with their descriptions, one line each, for the memo under the prompt. */
export function draftLines(draft: QuestionDraft): string[] {
  const pick = draft.multi ? "Pick one or more." : "Pick one.";
  return [
    `${draft.header}: ${pick}`,
    ...draft.options.map((o) => (o.description ? `${o.label}: ${o.description}` : o.label)),
    `${draft.ownWords.label}: your own words go back to Claude as the answer.`,
  ];
}
