// `ask_human`: files a question through the same ask core as `qbridge ask` and the API, then
// waits (optionally, up to an hour) for the owner's answer. The same open prompt is not filed
// twice unless the caller says so, so an agent that asks again after a restart finds its
// question instead of queuing a copy. The result carries the ask core's reply (ask-reply.ts) as
// the CLI and API do (deduplicated, expectedWaitSeconds, hint, similar), made as it is filed.
// A client may call it as a task instead (task-tool.ts): it answers at once with the task.

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { INPUT_TYPE_LIST } from "../card/inputs/registry.ts";
import { AskSchema, describeIssues, INPUT_TYPES, PRIORITIES } from "../card/question.ts";
import { type AskReply, askWithReply } from "../questions/ask-reply.ts";
import { type QuestionOutcome, QuestionOutcomeSchema } from "../questions/outcome.ts";
import { MAX_SIMILAR, SIMILAR_THRESHOLD } from "../questions/similar.ts";
import { toolArguments } from "./arguments.ts";
import { type McpDeps, tellChange } from "./deps.ts";
import { errorResult, structuredResult } from "./result.ts";
import type { QuestionTaskStore } from "./task-store.ts";
import { type FiledQuestion, questionTaskHandler } from "./task-tool.ts";
import { MAX_TOOL_WAIT_SECONDS, SHORT_TOOL_WAIT_SECONDS } from "./waiting.ts";

export const waitSeconds = (fallback: number) =>
  z
    .number()
    .int()
    .min(0)
    .max(MAX_TOOL_WAIT_SECONDS)
    .default(fallback)
    .describe(
      `How long to wait in this call for the answer, 0 to ${MAX_TOOL_WAIT_SECONDS} seconds. While waiting, progress is sent every 5 s when the call carries a progressToken: clients that reset their timeout on progress (Claude Code, any client with resetTimeoutOnProgress) wait it out; a client with a fixed tool timeout (Codex: tool_timeout_sec, 60 s by default) ends the call first, so keep wait_seconds under it (${SHORT_TOOL_WAIT_SECONDS} or less). An unanswered question comes back as status "pending": call get_answer later.`,
    );

/** The input types that carry options, as the tool's description names them. */
const WITH_OPTIONS = INPUT_TYPE_LIST.filter((t) => t.takesOptions)
  .map((t) => t.name)
  .join(" and ");

export const askShape = {
  prompt: z.string().describe("The question itself, one line the owner can answer at a glance."),
  memo: z
    .string()
    .describe(
      "Why you ask: everything the owner needs to answer without looking anything up (what happened, what you found, what each choice leads to).",
    ),
  type: z.enum(INPUT_TYPES).describe(`${INPUT_TYPE_LIST.map((t) => t.summary).join("; ")}.`),
  options: z
    .array(z.object({ id: z.string(), label: z.string() }))
    .optional()
    .describe(
      `For ${WITH_OPTIONS} only: at least 2 options, unique ids and labels. An option with id "_other" lets the owner type their own.`,
    ),
  directive: z
    .string()
    .describe("What you (or the follow-up job) will do with the answer once it exists."),
  learning: z
    .object({
      sink: z.enum(["guide", "briefing", "personality"]),
      proposal: z.string(),
      ref: z.string().optional(),
    })
    .optional()
    .describe("What the box will learn from the answer, shown to the owner before they decide."),
  recommended: z
    .string()
    .optional()
    .describe(`Your recommendation: an option id (${WITH_OPTIONS}) or "yes"/"no" (confirm).`),
  while_waiting: z
    .string()
    .optional()
    .describe("The safe thing you do while there is no answer, shown to the owner."),
  irreversible: z
    .boolean()
    .optional()
    .describe("True when acting on the answer cannot be undone: a tap must then be confirmed."),
  priority: z.enum(PRIORITIES).optional().describe("high, medium (default) or low."),
  expires_after: z
    .string()
    .optional()
    .describe("An ISO-8601 duration (e.g. P3D) after which the question expires unanswered."),
  asked_by: z.string().optional().describe("Who asks: your agent's name."),
  context: z
    .array(z.object({ ref: z.string(), text: z.string().optional() }))
    .optional()
    .describe("References (files, URLs) the owner may open, each with an optional excerpt."),
  callback: z
    .string()
    .optional()
    .describe(
      "An http(s) URL the outcome is POSTed to (signed) on every change of status; needs answer webhooks on where question-bridge runs.",
    ),
  unless_open: z
    .boolean()
    .default(true)
    .describe(
      "Default true: when a question with the same prompt is still open, return it instead of filing a second one.",
    ),
  wait_seconds: waitSeconds(0),
};

/** The outcome plus the advice `qbridge ask --json` and the API carry. */
export const AskResultSchema = QuestionOutcomeSchema.extend({
  deduplicated: z
    .boolean()
    .describe(
      "True when a question with the same prompt was still open and is returned instead: nothing was filed, and this call's memo, options and other fields were not used (withdraw it and ask again to change them).",
    ),
  expectedWaitSeconds: z
    .number()
    .int()
    .nullable()
    .describe(
      "The owner's median seconds to answer questions asked at this hour; null until there are 10 such answers.",
    ),
  hint: z
    .string()
    .nullable()
    .describe(
      "Set when questions like this one keep being dismissed or left to expire unanswered: consider not asking.",
    ),
  similar: z
    .array(
      z.object({
        id: z.string(),
        prompt: z.string(),
        answer: z.string(),
        answeredAt: z.string(),
        score: z.number(),
      }),
    )
    .describe(
      `Answered questions like this one (at most ${MAX_SIMILAR}, score ${SIMILAR_THRESHOLD} to 1, best first): when one already settles it, withdraw this question and use that answer.`,
    ),
});

type AskArgs = z.infer<z.ZodObject<typeof askShape>>;

/** The card fields the ask core takes, in its own spelling. */
export function cardOf(args: AskArgs): Record<string, unknown> {
  const card: Record<string, unknown> = {
    prompt: args.prompt,
    memo: args.memo,
    input: { type: args.type, ...(args.options ? { options: args.options } : {}) },
    directive: args.directive,
  };
  const optional: [string, unknown][] = [
    ["learning", args.learning],
    ["recommended", args.recommended],
    ["while-waiting", args.while_waiting],
    ["irreversible", args.irreversible],
    ["priority", args.priority],
    ["expires-after", args.expires_after],
    ["asked-by", args.asked_by],
    ["context", args.context],
    ["callback", args.callback],
  ];
  for (const [key, value] of optional) if (value !== undefined) card[key] = value;
  return card;
}

/** A card's path as the tool's arguments spell it: input.options is options, while-waiting
 * is while_waiting. */
function argumentPath(path: (string | number)[]): (string | number)[] {
  const [first, ...rest] = path;
  if (first === "input" && rest.length > 0) return rest;
  return typeof first === "string" ? [first.replace(/-/g, "_"), ...rest] : path;
}

/** The card rules' refusal, naming the arguments as this tool spells them; none when valid. */
function cardRefusal(card: Record<string, unknown>): string | undefined {
  const checked = AskSchema.safeParse(card);
  if (checked.success) return undefined;
  const issues = checked.error.issues.map((issue) => ({
    ...issue,
    path: argumentPath(issue.path),
  }));
  return `the question is not valid: ${describeIssues(new z.ZodError(issues))}`;
}

export const ASK_DESCRIPTION = `Ask your owner (the human you work for) one question you cannot settle alone, and get their answer as a recorded fact.

Ask when a decision is theirs to take: it spends their money or reputation, cannot be undone, or depends on a preference you do not know. Ask one decision per question; write a memo that lets them answer on their phone without looking anything up; offer options and a recommendation when you have them.

The owner answers when they can (Telegram, the web page). With wait_seconds the call waits for the answer; otherwise, or when the wait ends first, the result has status "pending": that means nobody has answered YET, never that they said no. Silence is not consent and not a refusal: do the safe thing (while_waiting), and read the answer later with get_answer. Asking the same prompt again returns the open question instead of a copy.`;

type AskBasis = Pick<AskReply, "deduplicated" | "expectedWaitSeconds" | "hint" | "similar">;

/** ask_human's result: the outcome as it stands (after a call's wait: its `heldUntil` then),
 * with the core's reply from the filing beside it. */
export function askResult(outcome: QuestionOutcome, basis: unknown): CallToolResult {
  return structuredResult({ ...outcome, ...(basis as AskBasis) });
}

/** Files the question through the ask core (or finds the same open one); a card the rules
 * refuse files nothing. */
async function fileAsk(
  deps: McpDeps,
  args: AskArgs,
): Promise<FiledQuestion<AskBasis> | CallToolResult> {
  const card = cardOf(args);
  const refusal = cardRefusal(card);
  if (refusal) return errorResult(refusal);
  const context = { timeZone: deps.timeZone, heldUntil: deps.heldUntil };
  const reply = await askWithReply(deps.core, context, card, {
    unlessOpen: args.unless_open,
    via: "mcp",
  });
  if (!reply.deduplicated) await tellChange(deps, { id: reply.id, action: "asked" });
  const { deduplicated, expectedWaitSeconds, hint, similar } = reply;
  return { id: reply.id, basis: { deduplicated, expectedWaitSeconds, hint, similar } };
}

export function registerAskTool(server: McpServer, deps: McpDeps, tasks: QuestionTaskStore): void {
  server.experimental.tasks.registerToolTask(
    "ask_human",
    {
      title: "Ask the owner",
      description: ASK_DESCRIPTION,
      inputSchema: toolArguments(askShape),
      outputSchema: AskResultSchema.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
      execution: { taskSupport: "optional" },
    },
    questionTaskHandler(deps, tasks, {
      tool: "ask_human",
      file: (args) => fileAsk(deps, args as AskArgs),
      waitSeconds: (args) => (args as AskArgs).wait_seconds,
    }),
  );
}
