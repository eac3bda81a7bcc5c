// `get_answer` and `list_questions`: reading outcomes. Reading never changes the box; a wait
// that ends unanswered returns `pending`, never an error.

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { STATUSES } from "../card/question.ts";
import { QuestionOutcomeSchema, questionOutcome } from "../questions/outcome.ts";
import { questionIdOf } from "../questions/question-ids.ts";
import type { QuestionView, Unreadable } from "../questions/state.ts";
import { boxState, pendingQuestions, questionsWithStatus } from "../questions/state.ts";
import { settleBeforeListing } from "../questions/transition.ts";
import { queueOrder } from "../slot/order.ts";
import { PresentationStore } from "../slot/presentation/records.ts";
import { QUESTION_ID, toolArguments } from "./arguments.ts";
import { waitSeconds } from "./ask-tool.ts";
import type { McpDeps } from "./deps.ts";
import { guarded, structuredResult } from "./result.ts";
import { waitReporting } from "./waiting.ts";

const GET_DESCRIPTION = `Read the owner's answer to a question you asked (its id came from ask_human or request_permission). With wait_seconds the call waits up to that long for the answer (at most an hour, for clients that keep waiting on progress: see wait_seconds). Status "pending" means nobody has answered YET: it is not a refusal and not consent; ask again later.`;

const LIST_DESCRIPTION =
  'List questions in the box as outcomes, each with its prompt and who asked it. Default: the pending ones, in the order the owner sees them (questions the owner parked last). status "all" adds every closed question after them.';

/** An outcome plus what the question asks and who asked: an outcome alone names only its id. */
const ListedSchema = QuestionOutcomeSchema.extend({
  prompt: z.string().describe("The question as it was asked."),
  askedBy: z.string().optional().describe("Who asked it (asked_by), when it was given."),
});

const ListOutput = {
  questions: z.array(ListedSchema),
  unreadable: z.array(z.object({ rel: z.string(), reason: z.string() })),
};

/** Pending questions as the slot queues them: parked ones behind the rest, as `qbridge list`. */
function inSlotOrder(deps: McpDeps, pending: QuestionView[]): QuestionView[] {
  const parked = deps.core.ledger.store(PresentationStore).parked();
  const queue = queueOrder(pending, parked);
  return [...queue.ready, ...queue.parked];
}

function listed(
  deps: McpDeps,
  status: string,
): { views: QuestionView[]; unreadable: Unreadable[] } {
  if (status === "pending") {
    const { pending, unreadable } = pendingQuestions(deps.core);
    return { views: inSlotOrder(deps, pending), unreadable };
  }
  if (status === "all") {
    const state = boxState(deps.core);
    const pending = inSlotOrder(deps, state.pending);
    return { views: [...pending, ...state.archive], unreadable: state.unreadable };
  }
  return {
    views: questionsWithStatus(deps.core, status as (typeof STATUSES)[number]),
    unreadable: [],
  };
}

export function registerReadTools(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    "get_answer",
    {
      title: "Read an answer",
      description: GET_DESCRIPTION,
      inputSchema: toolArguments({
        id: z.string().describe(QUESTION_ID),
        wait_seconds: waitSeconds(0),
      }),
      outputSchema: QuestionOutcomeSchema.shape,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args, extra) =>
      guarded(deps, "get_answer", async () => {
        const id = questionIdOf(deps.core, args.id);
        return structuredResult(await waitReporting(deps, id, args.wait_seconds, extra));
      }),
  );

  server.registerTool(
    "list_questions",
    {
      title: "List questions",
      description: LIST_DESCRIPTION,
      inputSchema: toolArguments({
        status: z
          .enum([...STATUSES, "all"])
          .default("pending")
          .describe("Which questions: pending (default), a status, or all."),
      }),
      outputSchema: ListOutput,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(deps, "list_questions", async () => {
        await settleBeforeListing(deps.core);
        const { views, unreadable } = listed(deps, args.status);
        const now = deps.core.box.clock.now();
        const questions = views.map((view) => ({
          ...questionOutcome(view, { now, link: deps.link, heldUntil: deps.heldUntil }),
          prompt: view.card.prompt,
          ...(view.card["asked-by"] ? { askedBy: view.card["asked-by"] } : {}),
        }));
        return structuredResult({ questions, unreadable });
      }),
  );
}
