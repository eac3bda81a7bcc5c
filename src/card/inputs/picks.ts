// Typed picks of a multi-select: items separated by commas, each named as a select's one pick
// is (letter, label ignoring case, or id). A label may hold commas itself: at each item the
// longest run of comma-separated parts that names one option is taken, so "Yes, but later, b"
// reads as the label "Yes, but later" and the letter b. Pure; it never guesses.

import { namedWithLetters, optionsNamed } from "./naming.ts";
import type { Option } from "./option.ts";

/** The picks, in the options' order and each once; or why the words pick nothing. */
export type PicksNamed = { picks: Option[] } | { refusal: string };

/** What typed items name, item by item: one unknown or ambiguous item refuses them all. */
export function picksNamed(options: Option[], typed: string): PicksNamed {
  const parts = typed.split(",");
  // No run is longer than the label with the most commas: hostile input stays linear.
  const longest = 1 + Math.max(0, ...options.map((o) => o.label.split(",").length - 1));
  const picked = new Set<Option>();
  let at = 0;
  while (at < parts.length) {
    const item = itemAt(options, parts, at, longest);
    if ("refusal" in item) return item;
    if (item.option) picked.add(item.option);
    at = item.next;
  }
  if (picked.size === 0) return { refusal: "one or more options, separated by commas" };
  return { picks: options.filter((o) => picked.has(o)) };
}

type Item = { option: Option | undefined; next: number } | { refusal: string };

/** The option the parts from `at` name (the longest run that names one), or the refusal. */
function itemAt(options: Option[], parts: string[], at: number, longest: number): Item {
  const last = Math.min(parts.length, at + longest);
  for (let end = last; end > at + 1; end--) {
    const named = optionsNamed(options, parts.slice(at, end).join(","));
    if (named.length === 1) return { option: named[0], next: end };
  }
  const word = (parts[at] ?? "").trim();
  // An empty item ("a,,c", a trailing comma) names nothing and refuses nothing.
  if (word === "") return { option: undefined, next: at + 1 };
  const named = optionsNamed(options, word);
  if (named.length === 1) return { option: named[0], next: at + 1 };
  if (named.length === 0) {
    return { refusal: `letters or labels of its options, and "${word}" names none of them` };
  }
  return {
    refusal: `one option per item, and "${word}" could mean ${namedWithLetters(options, named)}: type its whole label`,
  };
}
