// The ask advice reads only what it uses from the card index (answered cards' times; every card
// only when some prompt was closed unanswered often enough): over any set of cards its figures
// are exactly adviceFigures' over every digest in the stats' order, and computeStats' by hour
// and unanswered.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { Question } from "../../src/card/question.ts";
import { type CardDigest, updateIndex } from "../../src/ledger/card-index.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import { closedAt } from "../../src/questions/state.ts";
import { adviceFigures } from "../../src/questions/stats/ask-advice.ts";
import { indexedAdviceFigures } from "../../src/questions/stats/box-stats.ts";
import { computeStats, promptKey } from "../../src/questions/stats/stats.ts";
import { hourIn } from "../../src/questions/stats/stats-clock.ts";

const NOW = new Date("2026-07-10T09:00:00Z");
const HOUR = 3_600_000;

const dir = mkdtempSync(join(tmpdir(), "qbridge-advice-"));
const ledger = new Ledger(join(dir, "ledger.sqlite"));
afterAll(() => {
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An instant written as the cards may write it: UTC, or another offset (so text order and time
 * order can differ). */
function written(ms: number, offsetHours: number): string {
  const local = new Date(ms + offsetHours * HOUR).toISOString().slice(0, 19);
  if (offsetHours === 0) return `${local}Z`;
  const sign = offsetHours < 0 ? "-" : "+";
  return `${local}${sign}${String(Math.abs(offsetHours)).padStart(2, "0")}:00`;
}

// Few distinct times and prompts, so that asked-at ties and same-prompt runs are common; times
// before the 30-day window, inside it, and after the box clock.
const AGO_HOURS = [-3, 0, 1, 2, 5, 23, 24 * 29, 24 * 30 + 1, 24 * 45];
const LATER_SECONDS = [0, 30, 600, 3600, 7200, 3 * 86_400, 40 * 86_400];
const PROMPTS = [
  "Archive the 2019 invoices?",
  "archive the 2019 INVOICES!",
  "  Archive, the 2019 invoices ",
  "Rename the scans folder?",
  "rename the scans folder",
  "Ünïcode prompt?",
  "ÜNÏCODE PROMPT",
];
const STATUSES = [
  "pending",
  "answered",
  "dismissed",
  "expired",
  "dismissed",
  "expired",
  "withdrawn",
];

const cardArb = fc.record({
  status: fc.constantFrom(...STATUSES),
  prompt: fc.constantFrom(...PROMPTS),
  agoHours: fc.constantFrom(...AGO_HOURS),
  offset: fc.constantFrom(0, 2, -5),
  laterSeconds: fc.constantFrom(...LATER_SECONDS),
  closedTimeWritten: fc.boolean(),
});

type CardSpec = typeof cardArb extends fc.Arbitrary<infer T> ? T : never;

function digestOf(c: CardSpec): CardDigest {
  const asked = NOW.getTime() - c.agoHours * HOUR;
  const card = { status: c.status, prompt: c.prompt, "asked-at": written(asked, c.offset) };
  const field = c.status === "pending" ? undefined : `${c.status}-at`;
  // An answered card without its time counts nowhere; kept to show the reads agree on it too.
  if (field && c.closedTimeWritten) {
    Object.assign(card, { [field]: written(asked + c.laterSeconds * 1000, c.offset) });
  }
  return card as CardDigest;
}

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The stats' order: pending in slot order (here the id), then the newest closed first. */
function statsOrder(cards: { id: string; card: CardDigest }[]): CardDigest[] {
  const pending = cards.filter((c) => c.card.status === "pending");
  const archive = cards
    .filter((c) => c.card.status !== "pending")
    .sort((a, b) => order(closedAt(b.card), closedAt(a.card)) || order(a.id, b.id));
  return [...pending, ...archive].map((c) => c.card);
}

describe("the ask advice's figures read from the card index", () => {
  it("equal adviceFigures over every card, and computeStats by hour and unanswered, for any cards", () => {
    const seen = { withRuns: 0, withoutRuns: 0 };
    fc.assert(
      fc.property(
        fc.array(cardArb, { maxLength: 40 }),
        fc.constantFrom("Europe/Berlin", "Asia/Kolkata", "UTC"),
        (specs, zone) => {
          const cards = specs.map((spec, i) => ({
            id: `q-${String(i).padStart(3, "0")}`,
            card: digestOf(spec),
          }));
          ledger.db.exec("DELETE FROM card_index");
          updateIndex(
            ledger,
            cards.map(({ id, card }) => ({
              card: {
                id,
                rel: `questions/${id}.md`,
                status: card.status,
                card: card as Question,
                sortKey: id,
              },
              stamp: { mtime: "1", size: 1 },
            })),
            [],
          );
          const ordered = statsOrder(cards);
          const figures = indexedAdviceFigures(ledger, NOW, zone);
          expect(figures).toEqual(adviceFigures(ordered, NOW, zone));
          const stats = computeStats(ordered, NOW, zone);
          expect(figures.byHour).toEqual(stats.responsiveness.byHour);
          const byKey = [...figures.unanswered].sort((a, b) =>
            promptKey(a.prompt).localeCompare(promptKey(b.prompt)),
          );
          expect(byKey).toEqual(stats.unanswered);
          if (stats.unanswered.length > 0) seen.withRuns += 1;
          else seen.withoutRuns += 1;
        },
      ),
      { numRuns: 300 },
    );
    // Both ways of finding the runs were taken.
    expect(seen.withRuns).toBeGreaterThan(0);
    expect(seen.withoutRuns).toBeGreaterThan(0);
  });
});

describe("the hour of day the advice's figures are counted by", () => {
  it("is the hour Intl's formatted parts name, in any zone and at any instant", () => {
    const zones = Intl.supportedValuesOf("timeZone");
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2100, 0, 1) }),
        (zone, ms) => {
          const at = new Date(ms);
          const parts = new Intl.DateTimeFormat("en-GB", {
            hour: "2-digit",
            hourCycle: "h23",
            timeZone: zone,
          }).formatToParts(at);
          expect(hourIn(at, zone)).toBe(Number(parts.find((p) => p.type === "hour")?.value));
        },
      ),
      { numRuns: 500 },
    );
  });
});
