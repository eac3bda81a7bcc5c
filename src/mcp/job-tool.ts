// `get_job` and `mark_job_done`: the follow-up job an answer wrote (what to do with the answer, what to learn), as
// `qbridge jobs --json` lists it. An agent that reaches the box only through MCP gets `jobRel`
// in the outcome and needs a way to read what it names.

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { markJobDone, readJob } from "../questions/job-done.ts";
import { questionIdOf } from "../questions/question-ids.ts";
import { QUESTION_ID, toolArguments } from "./arguments.ts";
import type { McpDeps } from "./deps.ts";
import { errorResult, guarded, structuredResult } from "./result.ts";

const DESCRIPTION =
  "Read the follow-up job the owner's answer wrote: the directive, the answer, the learning to record and the steps (instructions) to carry it out, ending with how to mark the job done. Only an answered question has one.";

export function registerJobTool(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    "get_job",
    {
      title: "Read a follow-up job",
      description: DESCRIPTION,
      inputSchema: toolArguments({ id: z.string().describe(QUESTION_ID) }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(deps, "get_job", async () => {
        const read = await readJob(deps.core, questionIdOf(deps.core, args.id));
        if ("missing" in read) return errorResult(`${read.missing} (get_answer tells when)`);
        const { found } = read;
        if (found.error) return errorResult(`${found.rel} cannot be read as a job: ${found.error}`);
        return structuredResult({ ...found });
      }),
  );

  server.registerTool(
    "mark_job_done",
    {
      title: "Mark a follow-up job done",
      description:
        "Mark the follow-up job of an answered question done, once its steps are settled (its last step). One commit; a job already done is left as it is (commit null).",
      inputSchema: toolArguments({ id: z.string().describe(QUESTION_ID) }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    (args) =>
      guarded(deps, "mark_job_done", async () =>
        structuredResult({ ...(await markJobDone(deps.core, questionIdOf(deps.core, args.id))) }),
      ),
  );
}
