// `qbridge stats`: who asks what and how it ends (per asker, per learning ref), the prompts
// that keep going unanswered, and how fast the boxholder answers (last 30 days). Read-only.

import type { Command } from "commander";
import { indexedCards } from "../ledger/card-index.ts";
import { boxStats } from "../questions/stats/box-stats.ts";
import type { Spread, Stats, Tally } from "../questions/stats/stats.ts";
import { spoken } from "../questions/stats/stats-clock.ts";
import { type CommonOptions, printJson, withCore } from "./context.ts";
import { writeErr, writeOut } from "./output.ts";

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)].map((l) => `  ${l}\n`).join("");
}

function tallyRow(name: string, t: Tally): string[] {
  return [
    name,
    String(t.asked),
    String(t.answered),
    String(t.dismissed),
    String(t.expired),
    spoken(t.medianAnswerSeconds),
  ];
}

const TALLY_HEAD = ["asked", "answered", "dismissed", "expired", "median"];

function spreadRow(name: string, s: Spread): string[] {
  return [name, String(s.count), spoken(s.p50Seconds), spoken(s.p90Seconds)];
}

export function statsText(stats: Stats): string {
  const r = stats.responsiveness;
  const parts = [
    `per asker\n${table(
      ["asker", ...TALLY_HEAD],
      stats.askers.map((a) => tallyRow(a.asker, a)),
    )}`,
    stats.refs.length
      ? `per learning ref\n${table(
          ["ref", ...TALLY_HEAD],
          stats.refs.map((a) => tallyRow(a.ref, a)),
        )}`
      : "per learning ref: none\n",
    stats.unanswered.length
      ? `asked again and again, never answered\n${table(
          ["prompt", "times", "dismissed", "expired", "since"],
          stats.unanswered.map((u) => [
            u.prompt,
            String(u.times),
            String(u.dismissed),
            String(u.expired),
            u.since.slice(0, 10),
          ]),
        )}`
      : "asked again and again, never answered: none\n",
    `time to answer, last ${stats.windowDays} days (${stats.timeZone})\n${table(
      ["", "answers", "p50", "p90"],
      [
        spreadRow("overall", r),
        ...r.bySurface.map((s) => spreadRow(`via ${s.surface}`, s)),
        ...r.byHour
          .filter((h) => h.count > 0)
          .map((h) => spreadRow(`asked ${String(h.hour).padStart(2, "0")}:00`, h)),
      ],
    )}`,
  ];
  return parts.join("\n");
}

export function registerStatsCommand(program: Command): void {
  program
    .command("stats")
    .description(
      "who asks what and how it ends, prompts that keep going unanswered, and how fast answers come",
    )
    .option("--box <dir>", "the box directory (default: $QBRIDGE_BOX or ./box)")
    .option("--json", "print machine-readable JSON")
    .addHelpText(
      "after",
      `
Examples:
  qbridge stats
  qbridge stats --json`,
    )
    .action(async (options: CommonOptions) => {
      await withCore(options, async (core, config) => {
        const stats = boxStats(core, config.timeZone);
        // The figures count readable cards only: say how many were left out, as list does.
        const unreadable = indexedCards(core.ledger).filter((card) => card.error).length;
        if (unreadable > 0) {
          writeErr(
            `${unreadable} card(s) cannot be read and were left out of these figures: run "qbridge doctor"\n`,
          );
        }
        if (options.json) return printJson(stats);
        writeOut(statsText(stats));
      });
    });
}
