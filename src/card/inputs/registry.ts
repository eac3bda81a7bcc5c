// The input types a card may have: one line per type, each a room of its own (its schema's
// rules, the reading of answers, the buttons and form it offers). Adding a type is its file and
// one line here; nothing else in the house switches on a type. Pure.

import { confirm } from "./confirm.ts";
import type { InputType } from "./contract.ts";
import { multiselect } from "./multiselect.ts";
import { select } from "./select.ts";
import { text } from "./text.ts";

export const INPUT_TYPE_LIST = [
  select,
  multiselect,
  text,
  confirm,
] as const satisfies readonly InputType[];

/** The names a card's `input.type` may take, in the list's order. */
export const INPUT_TYPES = INPUT_TYPE_LIST.map((t) => t.name) as [string, ...string[]];

/** The type a card's input names; a name no type has is refused when the card is read. */
export function inputTypeOf(input: { type: string }): InputType {
  const found = INPUT_TYPE_LIST.find((t) => t.name === input.type);
  if (!found) throw new Error(`no input type "${input.type}": a card's rules refuse it first`);
  return found;
}
