// Times as a person reads them on a phone: how long ago (or how soon), then the date and time
// in the box's time zone. Card times stay ISO with an offset; only the page turns them human.

import { html, type Markup } from "./html.ts";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["week", 7 * 86_400],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** "3 days ago", "in 5 days", "just now". */
export function relativeTime(then: Date, now: Date): string {
  const seconds = (then.getTime() - now.getTime()) / 1000;
  const size = Math.abs(seconds);
  if (size < 60) return "just now";
  const words = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [unit, length] of UNITS) {
    if (size >= length) return words.format(Math.trunc(seconds / length), unit);
  }
  return "just now";
}

/** "28 Nov 2026, 14:02" in the given time zone (the system's when none is given). */
export function localTime(then: Date, timeZone?: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
  }).format(then);
}

/** A `<time>` element: relative words, the local date and time in brackets. */
export function timeMarkup(iso: string | undefined, now: Date, timeZone?: string): Markup {
  if (!iso) return html``;
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return html`${iso}`;
  return html`<time datetime="${iso}">${relativeTime(then, now)} (${localTime(then, timeZone)})</time>`;
}
