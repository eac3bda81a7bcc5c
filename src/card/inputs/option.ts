// An option of a question that offers options (select, multiselect): its schema, the id of
// the option for one's own words, and the letter it is typed by. Pure: no I/O.

import { z } from "zod";
import { NO_CONTROLS, noControls } from "../field-rules.ts";

/** The id of the option whose answer carries the boxholder's own words. */
export const OTHER_OPTION = "_other";

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

/** The letter shown before the option at an index: a, b, ... z, aa, ab ... */
export function letterOf(index: number): string {
  let n = index;
  let letters = "";
  do {
    letters = String.fromCharCode(97 + (n % 26)) + letters;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return letters;
}

/** The index `letterOf` gives `text`, when it is letters naming one of `count` options. */
export function indexOfLetter(text: string, count: number): number | undefined {
  if (!/^[a-z]+$/.test(text)) return undefined;
  let n = 0;
  for (const char of text) {
    n = n * 26 + (char.charCodeAt(0) - 96);
    if (n > count) return undefined;
  }
  return n - 1;
}
