// The rules a list of options follows (enough of them, unique ids, labels unique ignoring case,
// a recommendation that is one of them; for new questions, no label another's letter or id),
// and the options as a surface offers them. Pure: no I/O.

import type { Choice, InputCard, Issue } from "./contract.ts";
import { indexOfLetter, letterOf, type Option, OTHER_OPTION } from "./option.ts";

/** The options as a surface offers them, lettered or not. */
export function choicesOf(card: InputCard, options: Option[], lettered: boolean): Choice[] {
  return options.map((option, i) => ({
    id: option.id,
    label: option.label,
    letter: lettered ? letterOf(i) : undefined,
    recommended: card.recommended === option.id,
    ownWords: option.id === OTHER_OPTION,
  }));
}

/**
 * The rules of a list of options: at least 2 (a `kind` question "needs at least 2 options"),
 * unique ids, labels unique ignoring case, and a recommendation that is an option id.
 */
export function optionIssues(card: InputCard, kind: string): Issue[] {
  const { options } = card.input;
  const issues: Issue[] = [];
  if (!options || options.length < 2) {
    issues.push({
      path: ["input", "options"],
      message: `a ${kind} question needs at least 2 options`,
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
  return issues;
}

/** The rule of a question that carries no options: `type` names it in the message. */
export function noOptionIssues(card: InputCard): Issue[] {
  return card.input.options === undefined
    ? []
    : [{ path: ["input", "options"], message: `a ${card.input.type} question carries no options` }];
}

/**
 * The rule for new questions only (a card already in the box stays readable): no option's
 * label or id is another option's letter, id or label, so typed words name one option at most.
 * Only the options a word could name are compared (found by letter and by id), so the check
 * stays quick however many options an asker sends.
 */
export function ambiguityIssues(card: { input: { options?: Option[] | undefined } }): Issue[] {
  const options = card.input.options ?? [];
  const byId = new Map<string, number[]>();
  for (const [j, other] of options.entries()) {
    const id = other.id.toLowerCase();
    byId.set(id, [...(byId.get(id) ?? []), j]);
  }
  return options.flatMap((option, i) => {
    const label = option.label.trim().toLowerCase();
    const id = option.id.toLowerCase();
    const near = [
      indexOfLetter(label, options.length),
      ...(byId.get(label) ?? []),
      indexOfLetter(id, options.length),
    ].filter((j): j is number => j !== undefined && j !== i);
    return [...new Set(near)]
      .sort((a, b) => a - b)
      .flatMap((j) => {
        const other = options[j] as Option;
        const letter = letterOf(j);
        if (label === letter || label === other.id.toLowerCase()) {
          return [clash(["input", "options", i, "label"], option.label, other, letter)];
        }
        if (id === letter) {
          return [clash(["input", "options", i, "id"], option.id, other, letter)];
        }
        return [];
      });
  });
}

function clash(path: Issue["path"], value: string, other: Option, letter: string): Issue {
  return {
    path,
    message: `"${value}" is also how option "${other.label}" (${letter}) can be typed: choose another, so a typed answer names one option`,
  };
}
