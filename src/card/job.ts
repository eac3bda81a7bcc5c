// The follow-up job an answer writes for the agent: what to do with the answer, and what to
// learn from it. Pure: builds the file text, never writes it.

import { z } from "zod";
import { serializeCard } from "./codec.ts";
import { type Answer, AnswerSchema, LearningSchema, type Question } from "./question.ts";

export interface FollowUpJobInput {
  id: string;
  questionPath: string;
  card: Question;
  answer: Answer;
  answeredAt: string;
  answeredVia: string;
  answeredBy?: string | undefined;
  /** The status a late answer came from, so the agent knows the wait may have moved on. */
  answeredAfter?: "dismissed" | "expired" | undefined;
}

function instructions(
  id: string,
  card: Question,
  answeredAfter: FollowUpJobInput["answeredAfter"],
): string {
  const steps = [
    "1. Execute the directive using the answer. If the directive is empty, there is no immediate effect.",
  ];
  if (answeredAfter) {
    steps.push(
      `   The answer came late, after the question was ${answeredAfter} (\`answered-after\`): check the directive still applies to how things are now${card["while-waiting"] ? ` (meanwhile the safe action was: ${card["while-waiting"].replace(/\s+/g, " ")})` : ""} before executing it.`,
    );
  }
  if (card.learning) {
    steps.push(
      `2. Record the learning in its sink (${card.learning.sink}${card.learning.ref ? `, ${card.learning.ref}` : ""}) as a \`source: user-stated\` belief that quotes the answer and refers to the question card. A "no" is learning too: record the decline against the proposal rather than dropping it.`,
    );
    if (card.learning.sink === "briefing") {
      steps.push(
        "   For the briefing sink only the root briefing reaches an agent's context: resolve the ref to the root briefing and note the substitution if it named another.",
      );
    }
  } else {
    steps.push(
      "2. No learning was declared. Judge whether the answer generalizes beyond this one case; if it does, record it as a `source: user-stated` belief quoting the answer. A genuine one-off needs nothing recorded.",
    );
  }
  // The agent needs the how, not just the what: nothing else tells it how a job is closed.
  steps.push(
    `3. Mark this job done when both are settled: \`qbridge job-done ${id}\` (API: \`POST /api/v1/questions/${id}/job/done\`; MCP: \`mark_job_done\`) sets \`status: done\` and commits it.`,
  );
  return `# Follow-up of question ${card.prompt.replace(/\s+/g, " ").slice(0, 80)}\n\n${steps.join("\n")}\n`;
}

export function jobFileText(input: FollowUpJobInput): string {
  const { card } = input;
  return serializeCard(
    {
      type: "question-followup",
      status: "pending",
      "question-ref": input.questionPath,
      "question-id": input.id,
      prompt: card.prompt,
      directive: card.directive,
      answer: input.answer,
      learning: card.learning,
      "answered-at": input.answeredAt,
      "answered-via": input.answeredVia,
      "answered-by": input.answeredBy,
      "answered-after": input.answeredAfter,
      tasks: card.tasks,
      "created-at": input.answeredAt,
    },
    instructions(input.id, card, input.answeredAfter),
  );
}

/** A follow-up job card as read back: the fields the agent side relies on. */
export const JobSchema = z
  .object({
    type: z.literal("question-followup"),
    status: z.enum(["pending", "done"]),
    "question-ref": z.string().min(1),
    "question-id": z.string().min(1),
    prompt: z.string(),
    directive: z.string(),
    answer: AnswerSchema,
    learning: LearningSchema.optional(),
    "answered-at": z.string(),
    "answered-via": z.string(),
    "answered-by": z.string().optional(),
    "answered-after": z.enum(["dismissed", "expired"]).optional(),
    tasks: z.array(z.string()).optional(),
    "created-at": z.string(),
  })
  .passthrough();
export type Job = z.infer<typeof JobSchema>;
