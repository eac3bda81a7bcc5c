// A question's lifecycle on its card: the statuses, the fields only transitions write, and the
// rule that a status owns its fields and nothing else may be present. Pure: no I/O.

import type { Issue } from "./input.ts";

export const STATUSES = ["pending", "answered", "dismissed", "expired", "withdrawn"] as const;
export type Status = (typeof STATUSES)[number];

/** The fields only transitions write, and the status that owns each. */
export const TRANSITION_FIELDS = {
  answer: "answered",
  "answered-at": "answered",
  "answered-via": "answered",
  "answered-by": "answered",
  "answered-after": "answered",
  "dismissed-at": "dismissed",
  "expired-at": "expired",
  "withdrawn-at": "withdrawn",
  "withdrawn-reason": "withdrawn",
} as const satisfies Record<string, Status>;
export type TransitionField = keyof typeof TRANSITION_FIELDS;

const REQUIRED_FOR: Record<Status, TransitionField[]> = {
  pending: [],
  answered: ["answer", "answered-at", "answered-via"],
  dismissed: ["dismissed-at"],
  expired: ["expired-at"],
  withdrawn: ["withdrawn-at"],
};

/** The lifecycle rule: a status owns its fields, and nothing else may be present. */
export function lifecycleIssues(card: Record<string, unknown> & { status: Status }): Issue[] {
  const issues: Issue[] = [];
  const aCard = `${/^[aeiou]/.test(card.status) ? "an" : "a"} ${card.status} card`;
  for (const [field, owner] of Object.entries(TRANSITION_FIELDS)) {
    if (card[field] !== undefined && owner !== card.status) {
      issues.push({ path: [field], message: `${aCard} must not carry "${field}"` });
    }
  }
  for (const field of REQUIRED_FOR[card.status]) {
    if (card[field] === undefined) {
      issues.push({ path: [field], message: `${aCard} needs "${field}"` });
    }
  }
  return issues;
}
