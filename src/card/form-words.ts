// An MCP form's answer and its refusal as a person reads them: "Replicas: 3", "Tell the
// on-call channel: Yes", "Replicas must be 1 or more", never the JSON the answer is stored as
// or the validator's "data/replicas must be >= 1". Field titles and an enum's own labels are
// used wherever the form gives them. Pure: it never decides what is valid (the validator
// does, src/questions/fields-check.ts); it only words what was given and what was said.

import { type FormField, formContent, formFields } from "./elicitation.ts";
import type { Answer, Question } from "./question.ts";

export interface FieldWords {
  title: string;
  value: string;
}

function valueWords(field: FormField | undefined, value: unknown): string {
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (Array.isArray(value)) return value.map((item) => valueWords(field, item)).join(", ");
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const label = field?.choices?.find((choice) => choice.value === text)?.label;
  return label ?? text ?? String(value);
}

/**
 * Each field the answer gives, titled, in the form's order; undefined when the answer is no
 * form's content (one field is answered as its own question; a reply may be plain words).
 */
export function formAnswerWords(
  card: Pick<Question, "requested-schema" | "input">,
  answer: Answer,
): FieldWords[] | undefined {
  const fields = formFields(card["requested-schema"] ?? {});
  if (fields.length < 2 || !/^\s*\{/.test(answer.text)) return undefined;
  const content = formContent(card, answer);
  return fields
    .filter((field) => content[field.name] !== undefined)
    .map((field) => ({ title: field.title, value: valueWords(field, content[field.name]) }));
}

/** The answer as one line of words: "Environment: Staging; Replicas: 3". */
export function formAnswerLine(
  card: Pick<Question, "requested-schema" | "input">,
  answer: Answer,
): string | undefined {
  const words = formAnswerWords(card, answer);
  if (!words) return undefined;
  if (words.length === 0) return "an empty form";
  return words.map((field) => `${field.title}: ${field.value}`).join("; ");
}

const TYPE_WORDS: Record<string, string> = {
  integer: "a whole number",
  number: "a number",
  string: "text",
  boolean: "yes or no",
  array: "a list of choices",
};

const FORMAT_WORDS: Record<string, string> = {
  email: "an e-mail address",
  uri: "a web address such as https://example.org",
  date: "a date such as 2026-07-10",
  "date-time": "a date and time such as 2026-07-10T09:00:00Z",
};

const BOUND_WORDS: Record<string, (n: string) => string> = {
  ">=": (n) => `${n} or more`,
  "<=": (n) => `${n} or less`,
  ">": (n) => `more than ${n}`,
  "<": (n) => `less than ${n}`,
};

/** What one of the validator's messages asks of a field, in words ("must be 1 or more"). */
function demandWords(field: FormField | undefined, message: string): string {
  let m = /^must be (>=|<=|>|<) (\S+)$/.exec(message);
  if (m) return `must be ${BOUND_WORDS[m[1] as string]?.(m[2] as string)}`;
  m = /^must NOT have (fewer|more) than (\d+) (characters|items)$/.exec(message);
  if (m) {
    const most = m[1] === "more" ? "at most" : "at least";
    return m[3] === "items" ? `needs ${most} ${m[2]} picked` : `must be ${most} ${m[2]} characters`;
  }
  m = /^must match format "(.+)"$/.exec(message);
  if (m) return `must be ${FORMAT_WORDS[m[1] as string] ?? `in the format ${m[1]}`}`;
  m = /^must be (\w+)$/.exec(message);
  if (m && TYPE_WORDS[m[1] as string]) return `must be ${TYPE_WORDS[m[1] as string]}`;
  if (message === "must be equal to one of the allowed values" && field?.choices) {
    return `must be one of: ${field.choices.map((choice) => choice.label).join(", ")}`;
  }
  return message;
}

function unescapePointer(part: string): string {
  return part.replace(/~1/g, "/").replace(/~0/g, "~");
}

/**
 * The validator's refusal ("data/replicas must be >= 1, data must have required property
 * 'reason'") in the form's words: "Replicas must be 1 or more; Reason is a required property:
 * fill it in".
 */
export function refusalWords(schema: Record<string, unknown>, errorMessage: string): string {
  const fields = formFields(schema);
  const titled = (name: string) => fields.find((field) => field.name === name);
  return errorMessage
    .split(/, (?=data[/ ])/)
    .map((part) => {
      const m = /^data(?:\/([^/\s]*)\S*)? (.*)$/.exec(part.trim());
      if (!m) return part.trim();
      const required = /^must have required property '(.*)'$/.exec(m[2] as string);
      if (required) {
        const name = required[1] as string;
        return `${titled(name)?.title ?? name} is a required property: fill it in`;
      }
      const field = m[1] === undefined ? undefined : titled(unescapePointer(m[1]));
      const who = field?.title ?? (m[1] === undefined ? "The form" : unescapePointer(m[1]));
      return `${who} ${demandWords(field, m[2] as string)}`;
    })
    .join("; ");
}
