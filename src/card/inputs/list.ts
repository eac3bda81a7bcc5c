// The input types a card may have, one line each: adding a type is its room (a file beside this
// one that exports an InputType) and its line here. Nothing else names them.

export { confirm } from "./confirm.ts";
export { multiselect } from "./multiselect.ts";
export { select } from "./select.ts";
export { text } from "./text.ts";
