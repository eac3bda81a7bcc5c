// `withdraw_question`: the asker takes a question back (it no longer needs an answer). Goes
// through the transition core like every change of status; the owner's message says so and a
// late tap records nothing. Withdrawing is final.

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { QuestionOutcomeSchema, questionOutcome } from "../questions/outcome.ts";
import { questionIdOf } from "../questions/question-ids.ts";
import { loadQuestion } from "../questions/store.ts";
import { withdrawQuestion } from "../questions/withdraw.ts";
import { QUESTION_ID, toolArguments } from "./arguments.ts";
import { type McpDeps, tellChange } from "./deps.ts";
import { guarded, structuredResult } from "./result.ts";

const DESCRIPTION =
  "Withdraw a question you asked that no longer needs an answer (you found out yourself, the task was cancelled). The owner sees it withdrawn with your reason and can no longer answer it. Final; an answered question cannot be withdrawn.";

export function registerWithdrawTool(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    "withdraw_question",
    {
      title: "Withdraw a question",
      description: DESCRIPTION,
      inputSchema: toolArguments({
        id: z.string().describe(QUESTION_ID),
        reason: z
          .string()
          .optional()
          .describe("Why it no longer needs an answer, shown to the owner."),
      }),
      outputSchema: QuestionOutcomeSchema.shape,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    },
    (args) =>
      guarded(deps, "withdraw_question", async () => {
        const id = questionIdOf(deps.core, args.id);
        await withdrawQuestion(deps.core, id, { via: "mcp" }, { reason: args.reason });
        await tellChange(deps, { id, action: "withdrawn" });
        const { card } = loadQuestion(deps.core, id);
        const now = deps.core.box.clock.now();
        return structuredResult(questionOutcome({ id, card }, { now, link: deps.link }));
      }),
  );
}
