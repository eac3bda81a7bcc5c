// The rules every card field of one kind follows, whatever the field: text without control
// characters, ISO times with an offset, ISO-8601 durations.

import { z } from "zod";
import { parseDuration } from "./duration.ts";

/**
 * Card text may carry tabs and line breaks, never other control characters: a NUL cannot pass
 * through git, a terminal or Telegram, and the rest only hide or garble what is shown.
 */
export function controlCharacterIn(text: string): string | undefined {
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) {
      return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    }
  }
  return undefined;
}

export const NO_CONTROLS = {
  message: "must not contain control characters (tabs and line breaks are fine)",
} as const;
export const noControls = (text: string) => controlCharacterIn(text) === undefined;
/** A text field of a card: any Unicode text but control characters. */
export const cardText = () => z.string().refine(noControls, NO_CONTROLS);

/**
 * The years a card's times may fall in. The text form alone lets through times no Date holds
 * (an offset of +99:00) and years whose deadline or id date cannot be written back (0000,
 * 9999 plus 30 days): one such card failed every command that reads the box as a whole.
 */
const EARLIEST_MS = Date.UTC(1970, 0, 1);
const LATEST_MS = Date.UTC(9000, 0, 1);

export const isoTime = z
  .string({ invalid_type_error: "must be an ISO time text such as 2026-07-10T09:00:00+02:00" })
  .datetime({
    offset: true,
    message: "must be an ISO time with an offset, e.g. 2026-07-10T09:00:00Z",
  })
  .refine((text) => {
    const ms = Date.parse(text);
    return Number.isFinite(ms) && ms >= EARLIEST_MS && ms < LATEST_MS;
  }, "must be a real time between the years 1970 and 9000, with an offset of at most ±23:59");

/**
 * The longest duration a card may carry. A deadline past what a Date holds (P99999999Y) would
 * make every command that orders or ages the questions fail on that one card.
 */
const LONGEST_MS = 100 * 365 * 86_400_000;

export const duration = z
  .string()
  .refine((text) => parseDuration(text) !== undefined, "must be an ISO-8601 duration such as P30D")
  .refine((text) => (parseDuration(text) ?? 0) <= LONGEST_MS, "must be at most 100 years (P100Y)");
