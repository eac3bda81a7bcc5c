// "Later": the boxholder puts the presented question off until a chosen time. The question
// stays pending and its card is untouched (aging still counts from `asked-at`); the ledger keeps
// until when it stays out of the slot, and the slot shows it again by itself once that passes.

import { toIso } from "../../box/clock.ts";
import type { Db } from "../../ledger/ledger.ts";
import { atLocal, clockText, localDate } from "./wall-clock.ts";

export const LATER_CHOICES = ["evening", "morning", "week"] as const;
export type LaterChoice = (typeof LATER_CHOICES)[number];

export interface LaterOption {
  choice: LaterChoice;
  /** What a person reads: "This evening (19:00)". */
  label: string;
  until: Date;
}

const EVENING = 19 * 60;
const MORNING = 9 * 60;

/**
 * The times a question can be put off to, in the box's time zone: this evening at 19:00 (only
 * before then), tomorrow at 09:00, next Monday at 09:00.
 */
export function laterOptions(now: Date, timeZone: string): LaterOption[] {
  const today = localDate(now, timeZone);
  const options: LaterOption[] = [];
  if (today.minute < EVENING) {
    options.push({
      choice: "evening",
      label: "This evening (19:00)",
      until: atLocal(today, EVENING, timeZone),
    });
  }
  options.push({
    choice: "morning",
    label: "Tomorrow morning (09:00)",
    until: atLocal(today, MORNING, timeZone, 1),
  });
  const toMonday = (8 - today.weekday) % 7 || 7;
  options.push({
    choice: "week",
    label: "Next week (Monday 09:00)",
    until: atLocal(today, MORNING, timeZone, toMonday),
  });
  return options;
}

/** The option for a choice at `now`; undefined when it is not offered then (evening, past 19:00). */
export function laterOption(choice: string, now: Date, timeZone: string): LaterOption | undefined {
  return laterOptions(now, timeZone).find((o) => o.choice === choice);
}

const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** When a put-off question comes back, as a person says it: "tomorrow at 09:00". */
export function backAt(until: Date, now: Date, timeZone: string): string {
  const then = localDate(until, timeZone);
  const today = localDate(now, timeZone);
  const days = Math.round(
    (Date.UTC(then.year, then.month - 1, then.day) -
      Date.UTC(today.year, today.month - 1, today.day)) /
      86_400_000,
  );
  const day =
    days === 0
      ? "today"
      : days === 1
        ? "tomorrow"
        : days < 7
          ? `on ${DAY_NAMES[then.weekday]}`
          : `on ${DAY_NAMES[then.weekday]} ${then.day}/${then.month}`;
  return `${day} at ${clockText(then.minute)}`;
}

export class LaterStore {
  constructor(private readonly db: Db) {}

  /** Keeps the question out of the slot until `until`. */
  put(questionId: string, until: Date, at: string): void {
    this.db
      .prepare(
        `INSERT INTO later (question_id, until, chosen_at) VALUES (?, ?, ?)
         ON CONFLICT(question_id) DO UPDATE SET until = excluded.until, chosen_at = excluded.chosen_at`,
      )
      .run(questionId, toIso(until), at);
  }

  /** Until when a question was put off (possibly past already). */
  until(questionId: string): string | undefined {
    const row = this.db.prepare("SELECT until FROM later WHERE question_id = ?").get(questionId) as
      | { until: string }
      | undefined;
    return row?.until;
  }

  /** The questions still put off at `now`. */
  waiting(now: Date): Set<string> {
    const rows = this.db
      .prepare("SELECT question_id FROM later WHERE until > ?")
      .all(toIso(now)) as { question_id: string }[];
    return new Set(rows.map((r) => r.question_id));
  }

  /** Forgets the put-off (the question was shown again, or closed). */
  clear(questionId: string): void {
    this.db.prepare("DELETE FROM later WHERE question_id = ?").run(questionId);
  }

  /** Forgets the put-offs of the questions `stillPending` denies (closed-elsewhere.ts). */
  forgetClosed(stillPending: (questionId: string) => boolean): void {
    const rows = this.db.prepare("SELECT question_id FROM later").all() as {
      question_id: string;
    }[];
    for (const { question_id: id } of rows) if (!stillPending(id)) this.clear(id);
  }
}
