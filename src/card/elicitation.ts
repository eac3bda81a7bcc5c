// An MCP elicitation's form (its `requested_schema`: an object of flat fields) read as the
// question it becomes, and an answer to that question read back as the form's content. Pure:
// no I/O. Checking the content against the schema is src/questions/fields-check.ts.
// It never invents a value: a field the answer does not give is left out of the content.

import { visibleLine } from "./agent-text.ts";
import type { Answer, Option, Question } from "./question.ts";

export type FieldType = "string" | "number" | "integer" | "boolean" | "enum" | "multiselect";

export interface FormField {
  name: string;
  type: FieldType;
  /** What the boxholder reads: the field's title, else its name. */
  title: string;
  description?: string | undefined;
  required: boolean;
  /** An enum field's (or a multi-select's) values and the words shown for each. */
  choices?: { value: string; label: string }[] | undefined;
  /** The value the server suggests (the schema's `default`), as a form control holds it. */
  default?: string | undefined;
}

type Schema = Record<string, unknown>;

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/**
 * An enum field's values, from `enum` (with `enumNames`) or `oneOf` of `{const, title}`; a
 * multi-select's (`type: array`) from its `items`' `enum` or `anyOf` of `{const, title}`.
 */
function choicesOf(schema: Schema): FormField["choices"] {
  if (schema.type === "array") {
    const items = (schema.items ?? {}) as Schema;
    return choicesOf({ enum: items.enum, oneOf: items.anyOf });
  }
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => ({
      value: String(value),
      label: text(names[i]) ?? String(value),
    }));
  }
  const one = Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (!one) return undefined;
  return one.map((entry) => {
    const item = (entry ?? {}) as Schema;
    return { value: String(item.const), label: text(item.title) ?? String(item.const) };
  });
}

/** A schema's `default` as a control holds it; undefined for none or one no control can hold. */
function defaultOf(field: Schema): string | undefined {
  const value = field.default;
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : undefined;
}

/** The form's fields in the order the server listed them. */
export function formFields(schema: Schema): FormField[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(properties).map(([name, field]) => {
    const choices = choicesOf(field);
    const declared = field.type;
    const type: FieldType = choices
      ? declared === "array"
        ? "multiselect"
        : "enum"
      : declared === "boolean" || declared === "number" || declared === "integer"
        ? declared
        : "string";
    return {
      name,
      type,
      title: text(field.title) ?? name,
      description: text(field.description),
      required: required.has(name),
      choices,
      default: defaultOf(field),
    };
  });
}

/** The option id of an enum field's n-th value (values need not be valid option ids). */
export function choiceId(index: number): string {
  return `v${index + 1}`;
}

/** True when a field is asked with its choices as options: an enum or a multi-select of 2+. */
function offersChoices(field: FormField): boolean {
  return (
    (field.type === "enum" || field.type === "multiselect") && (field.choices?.length ?? 0) >= 2
  );
}

/**
 * The input a single field is asked with: an enum a select, a multi-select a multiselect (each
 * choice's words on one line, hidden characters spelled out), a boolean a yes/no, else text.
 */
export function singleFieldInput(field: FormField): Question["input"] {
  if (field.type === "boolean") return { type: "confirm" };
  if (offersChoices(field)) {
    const options: Option[] = (field.choices ?? []).map((choice, i) => ({
      id: choiceId(i),
      label: visibleLine(choice.label),
    }));
    return { type: field.type === "multiselect" ? "multiselect" : "select", options };
  }
  return { type: "text" };
}

/**
 * A typed value as its field's type: a number or a boolean where the field is one; a
 * multi-select's one value (a form with one box ticked sends it alone) as a list of one.
 */
function typedValue(field: FormField, raw: string): unknown {
  if (field.type === "multiselect") return [raw];
  if (field.type === "boolean") {
    const word = raw.trim().toLowerCase();
    if (word === "true" || word === "yes") return true;
    if (word === "false" || word === "no") return false;
    return raw;
  }
  if (field.type === "number" || field.type === "integer") {
    const trimmed = raw.trim();
    const value = Number(trimmed);
    return trimmed !== "" && Number.isFinite(value) ? value : raw;
  }
  return raw;
}

/**
 * The one field's value an answer gives, read by the field's type (singleFieldInput asked a
 * boolean as a yes/no and an enum of two or more as a select): the pick's value, else the text.
 */
function singleFieldContent(
  card: Pick<Question, "input">,
  only: FormField,
  answer: Answer,
): Record<string, unknown> {
  if (only.type === "boolean" && answer.selected !== undefined) {
    return { [only.name]: answer.selected === "yes" };
  }
  if (offersChoices(only)) {
    const options = card.input.options ?? [];
    const picked = (answer.selected ?? "").split(",").filter((id) => id !== "");
    const values = picked.map((id) => only.choices?.[options.findIndex((o) => o.id === id)]);
    if (values.some((choice) => choice === undefined)) return {};
    const given = values.map((choice) => choice?.value as string);
    if (only.type === "multiselect") return { [only.name]: given };
    return given.length === 1 ? { [only.name]: given[0] } : {};
  }
  return { [only.name]: typedValue(only, answer.text) };
}

/**
 * The form's content an answer gives. One field: the answer is that field's value. Several:
 * the answer's text is the JSON object of the values (the web page's form writes it).
 */
export function formContent(
  card: Pick<Question, "requested-schema" | "input">,
  answer: Answer,
): Record<string, unknown> {
  const fields = formFields(card["requested-schema"] ?? {});
  const [only] = fields;
  if (fields.length === 1 && only) return singleFieldContent(card, only, answer);
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    return {};
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return {};
  const given = parsed as Record<string, unknown>;
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const value = given[field.name];
    if (value === undefined || value === "") continue;
    content[field.name] = typeof value === "string" ? typedValue(field, value) : value;
  }
  return content;
}
