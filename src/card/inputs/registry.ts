// The registry of input types: the list's types (list.ts, one line each) in one array, their
// names, and the type a card's input names. Every surface asks it; none switches on a name. Pure.

import type { InputType } from "./contract.ts";
import * as list from "./list.ts";

export const INPUT_TYPE_LIST: readonly InputType[] = Object.values(list);

/** The names a card's `input.type` may take. */
export const INPUT_TYPES = INPUT_TYPE_LIST.map((t) => t.name) as [string, ...string[]];

/** The type a card's input names; a name no type has is refused when the card is read. */
export function inputTypeOf(input: { type: string }): InputType {
  const found = INPUT_TYPE_LIST.find((t) => t.name === input.type);
  if (!found) throw new Error(`no input type "${input.type}": a card's rules refuse it first`);
  return found;
}
