// A question's input: its type, its options, and the rules they follow (options where they
// belong, unique ids and labels, a recommendation that exists). Pure: no I/O.

import { z } from "zod";
import { NO_CONTROLS, noControls } from "./field-rules.ts";

export const INPUT_TYPES = ["select", "text", "confirm"] as const;
export type InputType = (typeof INPUT_TYPES)[number];

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

export const InputSchema = z.object({
  type: z.enum(INPUT_TYPES),
  options: z.array(OptionSchema).optional(),
});

/** A rule broken, with the field it concerns (as zod paths name fields). */
export type Issue = { path: (string | number)[]; message: string };

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

/**
 * The rule for new questions only (a card already in the box stays readable): no option's
 * label or id is another option's letter, id or label, so typed words name one option at most.
 */
export function ambiguityIssues(card: { input: { options?: Option[] | undefined } }): Issue[] {
  const options = card.input.options ?? [];
  return options.flatMap((option, i) =>
    options.flatMap((other, j) => {
      if (i === j) return [];
      const letter = letterOf(j);
      const label = option.label.trim().toLowerCase();
      if (label === letter || label === other.id.toLowerCase()) {
        return [clash(["input", "options", i, "label"], option.label, other, letter)];
      }
      if (option.id.toLowerCase() === letter) {
        return [clash(["input", "options", i, "id"], option.id, other, letter)];
      }
      return [];
    }),
  );
}

function clash(path: Issue["path"], value: string, other: Option, letter: string): Issue {
  return {
    path,
    message: `"${value}" is also how option "${other.label}" (${letter}) can be typed: choose another, so a typed answer names one option`,
  };
}

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

/** The options of a select question; confirm questions answer with these two. */
export const CONFIRM_OPTIONS: Option[] = [
  { id: "yes", label: "Yes" },
  { id: "no", label: "No" },
];

export function optionsOf(card: {
  input: { type: InputType; options?: Option[] | undefined };
}): Option[] {
  if (card.input.type === "select") return card.input.options ?? [];
  if (card.input.type === "confirm") return CONFIRM_OPTIONS;
  return [];
}
