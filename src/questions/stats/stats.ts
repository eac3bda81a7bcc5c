// Stop-asking signals and responsiveness, computed from cards (their digests: the fields the
// stats read) and the box clock.
// Pure: no git, no ledger, no I/O; the CLI, the API and the stats page load the cards and pass
// them in, so every figure can be checked exactly over a fixture.

import type { AnswerTimes } from "../../ledger/advice-digests.ts";
import type { CardDigest } from "../../ledger/card-index.ts";
import { ascending, dateIn, hourIn, percentile, type Zone } from "./stats-clock.ts";

/** Responsiveness and the daily chart look back this far from the box clock. */
export const WINDOW_DAYS = 30;
/** A prompt closed unanswered this many times in a row is a stop-asking signal. */
export const UNANSWERED_RUN = 3;
/** expectedWaitSeconds needs this many answers to questions asked at the same hour. */
export const EXPECTED_WAIT_MIN_ANSWERS = 10;

export interface Tally {
  asked: number;
  answered: number;
  dismissed: number;
  expired: number;
  medianAnswerSeconds: number | null;
}

export interface Spread {
  count: number;
  p50Seconds: number | null;
  p90Seconds: number | null;
}

export interface UnansweredPrompt {
  /** The prompt as last asked. */
  prompt: string;
  /** Closed without an answer since the last answer: dismissed + expired. */
  times: number;
  dismissed: number;
  expired: number;
  /** When the first of these was asked. */
  since: string;
}

export interface Stats {
  generatedAt: string;
  timeZone: string;
  windowDays: number;
  askers: (Tally & { asker: string })[];
  refs: (Tally & { ref: string })[];
  unanswered: UnansweredPrompt[];
  responsiveness: Spread & {
    bySurface: (Spread & { surface: string })[];
    byHour: (Spread & { hour: number })[];
  };
  days: { date: string; answered: number; dismissed: number; expired: number }[];
  distribution: { label: string; upToSeconds: number | null; count: number }[];
}

/** The card's time to answer in whole seconds, or undefined when it was not answered. */
export function answerSeconds(card: AnswerTimes): number | undefined {
  if (card.status !== "answered" || !card["answered-at"]) return undefined;
  const ms = Date.parse(card["answered-at"]) - Date.parse(card["asked-at"]);
  return Number.isNaN(ms) ? undefined : Math.max(0, Math.round(ms / 1000));
}

/** Prompts compared for "the same question": case, whitespace and punctuation do not count. */
export function promptKey(prompt: string): string {
  return prompt
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function spread(seconds: readonly number[]): Spread {
  const sorted = ascending(seconds);
  return {
    count: sorted.length,
    p50Seconds: percentile(sorted, 50),
    p90Seconds: percentile(sorted, 90),
  };
}

function tally(cards: readonly CardDigest[]): Tally {
  const times = cards.map(answerSeconds).filter((s): s is number => s !== undefined);
  const count = (status: CardDigest["status"]) => cards.filter((c) => c.status === status).length;
  return {
    asked: cards.length,
    answered: count("answered"),
    dismissed: count("dismissed"),
    expired: count("expired"),
    medianAnswerSeconds: percentile(ascending(times), 50),
  };
}

/** The cards by `key`, in the order the keys first appear. */
function groupBy(cards: readonly CardDigest[], key: (c: CardDigest) => string | undefined) {
  const groups = new Map<string, CardDigest[]>();
  for (const card of cards) {
    const k = key(card);
    if (k === undefined) continue;
    const group = groups.get(k);
    if (group) group.push(card);
    else groups.set(k, [card]);
  }
  return [...groups.entries()];
}

/** Groups in their keys' order for people. Only lists that are shown are sorted so: the ask
 * advice finds its prompt by key, and a locale comparison starts ICU's collation, which
 * a service then keeps. */
function byName<T>(groups: T[], name: (group: T) => string): T[] {
  return groups.sort((a, b) => name(a).localeCompare(name(b)));
}

/** The trailing run of unanswered closings of one prompt, oldest first; an answer resets it. */
function unansweredRun(cards: readonly CardDigest[]): UnansweredPrompt | undefined {
  // ISO times of one shape: their characters' order is their time order (no locale needed).
  const ordered = [...cards].sort((a, b) =>
    a["asked-at"] < b["asked-at"] ? -1 : a["asked-at"] > b["asked-at"] ? 1 : 0,
  );
  let run: CardDigest[] = [];
  for (const card of ordered) {
    if (card.status === "answered") run = [];
    else if (card.status === "dismissed" || card.status === "expired") run.push(card);
  }
  const first = run[0];
  const last = ordered[ordered.length - 1];
  if (run.length < UNANSWERED_RUN || !first || !last) return undefined;
  const dismissed = run.filter((c) => c.status === "dismissed").length;
  return {
    prompt: last.prompt,
    times: run.length,
    dismissed,
    expired: run.length - dismissed,
    since: first["asked-at"],
  };
}

/** Buckets of the time-to-answer chart: each holds answers up to its bound. */
const BUCKETS: { label: string; upToSeconds: number | null }[] = [
  { label: "under 1 minute", upToSeconds: 60 },
  { label: "1-10 minutes", upToSeconds: 600 },
  { label: "10-60 minutes", upToSeconds: 3600 },
  { label: "1-6 hours", upToSeconds: 6 * 3600 },
  { label: "6-24 hours", upToSeconds: 24 * 3600 },
  { label: "1-3 days", upToSeconds: 3 * 86400 },
  { label: "over 3 days", upToSeconds: null },
];

function distribution(seconds: readonly number[]): Stats["distribution"] {
  const counts = BUCKETS.map(() => 0);
  for (const s of seconds) {
    const i = BUCKETS.findIndex((b) => b.upToSeconds === null || s < b.upToSeconds);
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return BUCKETS.map((b, i) => ({ ...b, count: counts[i] ?? 0 }));
}

function days(cards: readonly CardDigest[], now: Date, timeZone: string): Stats["days"] {
  const rows = Array.from({ length: WINDOW_DAYS }, (_, i) => ({
    date: dateIn(new Date(now.getTime() - (WINDOW_DAYS - 1 - i) * 86_400_000), timeZone),
    answered: 0,
    dismissed: 0,
    expired: 0,
  }));
  for (const card of cards) {
    const at =
      card.status === "answered"
        ? card["answered-at"]
        : card.status === "dismissed"
          ? card["dismissed-at"]
          : card.status === "expired"
            ? card["expired-at"]
            : undefined;
    if (!at) continue;
    const date = dateIn(new Date(at), timeZone);
    const row = rows.find((r) => r.date === date);
    if (
      row &&
      (card.status === "answered" || card.status === "dismissed" || card.status === "expired")
    )
      row[card.status] += 1;
  }
  return rows;
}

export function recentAnswers<T extends AnswerTimes>(cards: readonly T[], now: Date): T[] {
  const since = now.getTime() - WINDOW_DAYS * 86_400_000;
  return cards.filter((c) => {
    const at = c["answered-at"] ? Date.parse(c["answered-at"]) : Number.NaN;
    return answerSeconds(c) !== undefined && at > since && at <= now.getTime();
  });
}

const secondsOf = (list: readonly AnswerTimes[]) => list.map((c) => answerSeconds(c) ?? 0);

export function byHourOf(
  recent: readonly AnswerTimes[],
  timeZone: Zone,
): Stats["responsiveness"]["byHour"] {
  // Each card's hour is worked out once, not once per hour of the day.
  const byHour = Array.from({ length: 24 }, () => [] as AnswerTimes[]);
  for (const card of recent) byHour[hourIn(new Date(card["asked-at"]), timeZone)]?.push(card);
  return byHour.map((list, hour) => ({ hour, ...spread(secondsOf(list)) }));
}

export function unansweredOf(cards: readonly CardDigest[]): UnansweredPrompt[] {
  return groupBy(cards, (c) => promptKey(c.prompt))
    .map(([, list]) => unansweredRun(list))
    .filter((u): u is UnansweredPrompt => u !== undefined);
}

export function computeStats(cards: readonly CardDigest[], now: Date, timeZone: string): Stats {
  const recent = recentAnswers(cards, now);
  return {
    generatedAt: now.toISOString(),
    timeZone,
    windowDays: WINDOW_DAYS,
    askers: byName(
      groupBy(cards, (c) => c["asked-by"] ?? "(unnamed)"),
      ([k]) => k,
    ).map(([asker, list]) => ({ asker, ...tally(list) })),
    refs: byName(
      groupBy(cards, (c) => c.learning?.ref),
      ([k]) => k,
    ).map(([ref, list]) => ({
      ref,
      ...tally(list),
    })),
    unanswered: byName(unansweredOf(cards), (u) => promptKey(u.prompt)),
    responsiveness: {
      ...spread(secondsOf(recent)),
      bySurface: byName(
        groupBy(recent, (c) => c["answered-via"] ?? "unknown"),
        ([k]) => k,
      ).map(([surface, list]) => ({ surface, ...spread(secondsOf(list)) })),
      byHour: byHourOf(recent, timeZone),
    },
    days: days(cards, now, timeZone),
    distribution: distribution(secondsOf(recent)),
  };
}
