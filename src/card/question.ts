// The question card contract: what an asker may write, what only transitions write, and the
// rules checked on create and on every load. Pure: no I/O.

import { z } from "zod";
import { parseDuration } from "./duration.ts";

export const STATUSES = ["pending", "answered", "dismissed", "expired", "withdrawn"] as const;
export type Status = (typeof STATUSES)[number];
export const PRIORITIES = ["high", "medium", "low"] as const;
export type Priority = (typeof PRIORITIES)[number];
export const INPUT_TYPES = ["select", "text", "confirm"] as const;
export type InputType = (typeof INPUT_TYPES)[number];

/**
 * The version of the rules below. A card index (the ledger's cache of what each card file
 * parsed to) made under other rules is dropped and every card re-read, so a card these rules
 * reject is never served from the cache. Raise it when a rule changes in a way the lists of
 * statuses, fields and limits do not show (they are part of the index key already).
 */
export const CARD_RULES_VERSION = 1;

/** The id of the option whose answer carries the boxholder's own words. */
export const OTHER_OPTION = "_other";

/**
 * Card text may carry tabs and line breaks, never other control characters: a NUL cannot pass
 * through git, a terminal or Telegram, and the rest only hide or garble what is shown.
 */
export function controlCharacterIn(text: string): string | undefined {
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) {
      return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    }
  }
  return undefined;
}

const NO_CONTROLS = {
  message: "must not contain control characters (tabs and line breaks are fine)",
} as const;
const noControls = (text: string) => controlCharacterIn(text) === undefined;
/** A text field of a card: any Unicode text but control characters. */
const cardText = () => z.string().refine(noControls, NO_CONTROLS);

const isoTime = z
  .string({ invalid_type_error: "must be an ISO time text such as 2026-07-10T09:00:00+02:00" })
  .datetime({
    offset: true,
    message: "must be an ISO time with an offset, e.g. 2026-07-10T09:00:00Z",
  });

const optionId = z
  .string()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/, "option ids use letters, digits, '_', '.', '-'");

export const OptionSchema = z.object({
  id: optionId,
  label: z
    .string()
    .trim()
    .min(1, "an option needs a label")
    .max(500)
    .refine(noControls, NO_CONTROLS),
});
export type Option = z.infer<typeof OptionSchema>;

export const InputSchema = z.object({
  type: z.enum(INPUT_TYPES),
  options: z.array(OptionSchema).optional(),
});

export const LearningSchema = z.object({
  sink: z.enum(["guide", "briefing", "personality"]),
  ref: cardText().pipe(z.string().min(1)).optional(),
  proposal: z.string().trim().min(1, "a learning needs a proposal").refine(noControls, NO_CONTROLS),
});

export const ContextSchema = z.object({
  ref: cardText().pipe(z.string().min(1)),
  text: cardText().optional(),
});

export const AnswerSchema = z.object({
  text: cardText(),
  selected: cardText().optional(),
  note: cardText().optional(),
});
export type Answer = z.infer<typeof AnswerSchema>;

const duration = z
  .string()
  .refine((text) => parseDuration(text) !== undefined, "must be an ISO-8601 duration such as P30D");

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

/** The fields only transitions write, and the status that owns each. */
export const TRANSITION_FIELDS = {
  answer: "answered",
  "answered-at": "answered",
  "answered-via": "answered",
  "answered-by": "answered",
  "answered-after": "answered",
  "dismissed-at": "dismissed",
  "expired-at": "expired",
  "withdrawn-at": "withdrawn",
  "withdrawn-reason": "withdrawn",
} as const satisfies Record<string, Status>;
export type TransitionField = keyof typeof TRANSITION_FIELDS;

const REQUIRED_FOR: Record<Status, TransitionField[]> = {
  pending: [],
  answered: ["answer", "answered-at", "answered-via"],
  dismissed: ["dismissed-at"],
  expired: ["expired-at"],
  withdrawn: ["withdrawn-at"],
};

type Issue = { path: (string | number)[]; message: string };

/** The input rules: options where they belong, unique, and a recommendation that exists. */
export function inputIssues(card: {
  input: { type: InputType; options?: Option[] | undefined };
  recommended?: string | undefined;
}): Issue[] {
  const issues: Issue[] = [];
  const { type, options } = card.input;
  if (type === "select") {
    if (!options || options.length < 2) {
      issues.push({
        path: ["input", "options"],
        message: "a select question needs at least 2 options",
      });
    }
    const ids = new Set<string>();
    const labels = new Set<string>();
    for (const [i, option] of (options ?? []).entries()) {
      if (ids.has(option.id)) {
        issues.push({
          path: ["input", "options", i, "id"],
          message: `option id "${option.id}" is used twice`,
        });
      }
      const label = option.label.trim().toLowerCase();
      if (labels.has(label)) {
        issues.push({
          path: ["input", "options", i, "label"],
          message: `option label "${option.label}" is used twice (labels are compared ignoring case)`,
        });
      }
      ids.add(option.id);
      labels.add(label);
    }
    if (card.recommended !== undefined && !ids.has(card.recommended)) {
      issues.push({
        path: ["recommended"],
        message: `recommended "${card.recommended}" is not an option id`,
      });
    }
  } else {
    if (options !== undefined) {
      issues.push({ path: ["input", "options"], message: `a ${type} question carries no options` });
    }
    if (
      type === "confirm" &&
      card.recommended !== undefined &&
      !["yes", "no"].includes(card.recommended)
    ) {
      issues.push({
        path: ["recommended"],
        message: 'a confirm question recommends "yes" or "no"',
      });
    }
    if (type === "text" && card.recommended !== undefined) {
      issues.push({ path: ["recommended"], message: "a text question has no option to recommend" });
    }
  }
  return issues;
}

/** The lifecycle rule: a status owns its fields, and nothing else may be present. */
export function lifecycleIssues(card: Record<string, unknown> & { status: Status }): Issue[] {
  const issues: Issue[] = [];
  const aCard = `${/^[aeiou]/.test(card.status) ? "an" : "a"} ${card.status} card`;
  for (const [field, owner] of Object.entries(TRANSITION_FIELDS)) {
    if (card[field] !== undefined && owner !== card.status) {
      issues.push({ path: [field], message: `${aCard} must not carry "${field}"` });
    }
  }
  for (const field of REQUIRED_FOR[card.status]) {
    if (card[field] === undefined) {
      issues.push({ path: [field], message: `${aCard} needs "${field}"` });
    }
  }
  return issues;
}

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
    "withdrawn-reason": z.string().max(2_000).optional(),
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
    for (const issue of inputIssues(card)) ctx.addIssue({ code: z.ZodIssueCode.custom, ...issue });
  });
export type AskInput = z.input<typeof AskSchema>;

/** One readable sentence for a zod failure: each problem with the field it concerns. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length ? issue.path.join(".") : "card";
      const message =
        issue.code === "unrecognized_keys"
          ? `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`
          : issue.message;
      return `${where}: ${message}`;
    })
    .join("; ");
}

/** The options of a select question; confirm questions answer with these two. */
export const CONFIRM_OPTIONS: Option[] = [
  { id: "yes", label: "Yes" },
  { id: "no", label: "No" },
];

export function optionsOf(card: Pick<Question, "input">): Option[] {
  if (card.input.type === "select") return card.input.options ?? [];
  if (card.input.type === "confirm") return CONFIRM_OPTIONS;
  return [];
}

export function priorityOf(card: Pick<Question, "priority">): Priority {
  return card.priority ?? "medium";
}
