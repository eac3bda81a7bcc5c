// A question's input: its type and its options, checked by the rules of its type (each type is
// a room of its own under inputs/, listed in inputs/registry.ts). Pure: no I/O.

import { z } from "zod";
import type { Issue } from "./inputs/contract.ts";
import { type Option, OptionSchema } from "./inputs/option.ts";
import { INPUT_TYPE_LIST, INPUT_TYPES, inputTypeOf } from "./inputs/registry.ts";

export { CONFIRM_OPTIONS } from "./inputs/confirm.ts";
export type { InputType, Issue } from "./inputs/contract.ts";
export { letterOf, type Option, OptionSchema, OTHER_OPTION } from "./inputs/option.ts";
export { ambiguityIssues } from "./inputs/option-rules.ts";
export { INPUT_TYPES, inputTypeOf } from "./inputs/registry.ts";

export type InputTypeName = (typeof INPUT_TYPES)[number];

export const InputSchema = z.object({
  type: z.enum(INPUT_TYPES),
  options: z.array(OptionSchema).optional(),
});

/** The input rules of the card's type: options where they belong, unique, a fitting recommendation. */
export function inputIssues(card: {
  input: { type: InputTypeName; options?: Option[] | undefined };
  recommended?: string | undefined;
}): Issue[] {
  // A type no room has is the enum's to report; its own rules cannot be asked.
  return INPUT_TYPE_LIST.find((t) => t.name === card.input.type)?.issues(card) ?? [];
}

/** The options an answer names: a select's own, a confirm's yes and no, none for text. */
export function optionsOf(card: {
  input: { type: InputTypeName; options?: Option[] | undefined };
}): Option[] {
  return inputTypeOf(card.input).options(card.input);
}
