// The question card contract: what an asker may write, what only transitions write, and the
// rules checked on create and on every load. Pure: no I/O. Its parts have their own files (the
// input and its options: input.ts; statuses and transition fields: lifecycle.ts; text, time and
// duration fields: field-rules.ts) and are re-exported here, so a card's contract is one import.

import { z } from "zod";
import { AnswerSchema } from "./answer.ts";
import { cardText, duration, isoTime, NO_CONTROLS, noControls } from "./field-rules.ts";
import { ambiguityIssues, InputSchema, inputIssues } from "./input.ts";
import { lifecycleIssues, STATUSES } from "./lifecycle.ts";

export { controlCharacterIn } from "./field-rules.ts";
export {
  CONFIRM_OPTIONS,
  INPUT_TYPES,
  InputSchema,
  type InputTypeName,
  inputIssues,
  inputTypeOf,
  type Option,
  OptionSchema,
  OTHER_OPTION,
  optionsOf,
} from "./input.ts";
export {
  lifecycleIssues,
  STATUSES,
  type Status,
  TRANSITION_FIELDS,
  type TransitionField,
} from "./lifecycle.ts";

export const PRIORITIES = ["high", "medium", "low"] as const;
export type Priority = (typeof PRIORITIES)[number];

/** The questions a coding agent's own prompt becomes (see `kind` below). */
export const QUESTION_KINDS = ["permission", "elicitation"] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/**
 * The version of the card rules (this file and its parts). A card index (the ledger's cache of what each card file
 * parsed to) made under other rules is dropped and every card re-read, so a card these rules
 * reject is never served from the cache. Raise it when a rule changes in a way the lists of
 * statuses, fields and limits do not show (they are part of the index key already).
 */
export const CARD_RULES_VERSION = 3;

export const LearningSchema = z.object({
  sink: z.enum(["guide", "briefing", "personality"]),
  ref: cardText().pipe(z.string().min(1)).optional(),
  proposal: z.string().trim().min(1, "a learning needs a proposal").refine(noControls, NO_CONTROLS),
});

export const ContextSchema = z.object({
  ref: cardText().pipe(z.string().min(1)),
  text: cardText().optional(),
});

export { type Answer, AnswerSchema } from "./answer.ts";

/** The fields an asker sets. */
export const askedFields = {
  memo: z
    .string()
    .trim()
    .min(1, "a memo says why you ask")
    .max(20_000)
    .refine(noControls, NO_CONTROLS),
  prompt: z
    .string()
    .trim()
    .min(1, "a prompt is the question itself")
    .max(2_000)
    .refine(noControls, NO_CONTROLS),
  input: InputSchema,
  learning: LearningSchema.optional(),
  directive: z
    .string()
    .trim()
    .min(1, "a directive says what the answer unblocks")
    .max(20_000)
    .refine(noControls, NO_CONTROLS),
  context: z.array(ContextSchema).optional(),
  "asked-at": isoTime,
  "expires-after": duration.optional(),
  priority: z.enum(PRIORITIES).optional(),
  recommended: cardText().optional(),
  "while-waiting": cardText().optional(),
  irreversible: z.boolean().optional(),
  tasks: z.array(cardText()).optional(),
  "asked-by": cardText().optional(),
  /** Where the outcome is POSTed on each transition (answer webhooks; needs a signing secret). */
  callback: z
    .string()
    .max(2_000)
    .regex(/^https?:\/\/[^\s/?#]+\S*$/, "callback must be an http(s) URL")
    .optional(),
};

const QuestionShape = z
  .object({
    status: z.enum(STATUSES),
    ...askedFields,
    answer: AnswerSchema.optional(),
    "answered-at": isoTime.optional(),
    "answered-via": z
      .string()
      .regex(
        /^[a-z][a-z0-9-]{0,31}$/,
        "answered-via names a surface such as cli, web, api, telegram",
      )
      .optional(),
    "answered-by": cardText().optional(),
    /** Set when the answer came after a dismissal or expiry: the answer was late. */
    "answered-after": z.enum(["dismissed", "expired"]).optional(),
    "dismissed-at": isoTime.optional(),
    "expired-at": isoTime.optional(),
    "withdrawn-at": isoTime.optional(),
    "withdrawn-reason": z.string().max(2_000).refine(noControls, NO_CONTROLS).optional(),
    /**
     * Set only by the coding-agent paths that file a question for an agent's own prompt (never
     * by an asker: AskSchema refuses it). A permission question is answered only on the
     * boxholder's own surfaces and never in bulk.
     */
    kind: z.enum(QUESTION_KINDS).optional(),
    /**
     * An elicitation's form as the MCP server sent it (a JSON Schema object of flat fields),
     * set with `kind: elicitation` by the same paths only: an answer is checked against it
     * before it is recorded (src/questions/fields-check.ts).
     */
    "requested-schema": z.record(z.unknown()).optional(),
    /**
     * The whole request a permission question allows (a command, or the tool's input as JSON),
     * set with `kind: permission` by the same paths only: an allow is recorded only on a
     * surface that showed it whole (src/card/agent-request.ts).
     */
    request: z.string().max(200_000).refine(noControls, NO_CONTROLS).optional(),
  })
  .passthrough();

/** A question card as loaded: every rule holds, unknown keys kept. */
export const QuestionSchema = QuestionShape.superRefine((card, ctx) => {
  for (const issue of [...inputIssues(card), ...lifecycleIssues(card)]) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, ...issue });
  }
});
export type Question = z.infer<typeof QuestionSchema>;

/** What an asker submits: the asked fields, `asked-at` optional (ask sets it). */
export const AskSchema = z
  .object({ ...askedFields, "asked-at": isoTime.optional(), id: z.string().optional() })
  .strict()
  .superRefine((card, ctx) => {
    for (const issue of [...inputIssues(card), ...ambiguityIssues(card)]) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, ...issue });
    }
  });
export type AskInput = z.input<typeof AskSchema>;

// An agent that also speaks MCP writes `while_waiting` or `expiresAfter`: name the card's spelling.
const CARD_FIELDS = [...Object.keys(askedFields), "asked-at", "id"];
function namedField(key: string): string {
  const plain = (name: string) => name.toLowerCase().replace(/[-_\s]/g, "");
  const meant = CARD_FIELDS.find((name) => name !== key && plain(name) === plain(key));
  return meant ? `"${key}" (did you mean "${meant}"?)` : `"${key}"`;
}

/** One readable sentence for a zod failure: each problem with the field it concerns. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length ? issue.path.join(".") : "card";
      const message =
        issue.code === "unrecognized_keys"
          ? `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map(namedField).join(", ")}`
          : issue.message;
      return `${where}: ${message}`;
    })
    .join("; ");
}

export function priorityOf(card: Pick<Question, "priority">): Priority {
  return card.priority ?? "medium";
}

/**
 * A question a coding agent's own prompt became (a permission or a form: a card with a `kind`):
 * its answer goes back to the waiting agent process, so it writes no follow-up job; it never
 * waits (mayWait); and it is answered or declined only by the boxholder (the judge's who.ts).
 * The one test of "an agent's hook question": use it, never a second.
 */
export function isAgentPrompt(card: Pick<Question, "kind">): boolean {
  return card.kind !== undefined;
}

/**
 * Whether a question may wait: be parked, put off ("Later") or given more time. One an agent
 * waits on may not: its asker gives up within minutes, so waiting only loses it.
 */
export function mayWait(card: Pick<Question, "kind">): boolean {
  return !isAgentPrompt(card);
}

/** Why a question an agent waits on is not parked, put off or extended; what to do instead. */
export const AGENT_WAITS =
  "an agent waits on this question and gives up within minutes: it cannot be parked, put off or given more time; answer it, or dismiss it";

/** A coding agent's permission prompt: answered only by the boxholder on their own surfaces. */
export function isPermissionQuestion(card: Pick<Question, "kind">): boolean {
  return card.kind === "permission";
}
