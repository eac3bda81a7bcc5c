// `extend_question`: more time before a pending question expires, through the same transition
// core as `qbridge extend` and the API (one commit rewriting `expires-after`). The asker uses it
// when the answer can still wait; the nudge moves with the new deadline.

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { extendQuestion } from "../questions/extend.ts";
import { questionIdOf } from "../questions/question-ids.ts";
import { QUESTION_ID, toolArguments } from "./arguments.ts";
import { type McpDeps, tellChange } from "./deps.ts";
import { guarded, structuredResult } from "./result.ts";

const DESCRIPTION =
  "Give a pending question more time before it expires unanswered (the answer can still wait). The time is added to its current deadline; the owner's reminder moves with it. Only pending questions can be extended.";

export function registerExtendTool(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    "extend_question",
    {
      title: "Extend a question's deadline",
      description: DESCRIPTION,
      inputSchema: toolArguments({
        id: z.string().describe(QUESTION_ID),
        duration: z
          .string()
          .describe(
            'How much time to add, a minute to 365 days: an ISO-8601 duration (P7D, PT12H; P1M is a month) or 30m, 12h, 3d, 2w ("m" is minutes).',
          ),
      }),
      outputSchema: {
        id: z.string(),
        expiresAfter: z.string().describe("The card's new expires-after."),
        previousExpiresAt: z.string(),
        expiresAt: z.string().describe("The new deadline, an ISO time."),
        commit: z.string(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    (args) =>
      guarded(deps, "extend_question", async () => {
        const id = questionIdOf(deps.core, args.id);
        const result = await extendQuestion(deps.core, id, args.duration, { via: "mcp" });
        await tellChange(deps, { id, action: "extended" });
        return structuredResult({ ...result });
      }),
  );
}
