// Where a box write spends its time: the write announces its named steps on a diagnostics
// channel (src/box/write-steps.ts); the bench listens and times the spans between them, so the
// answer transition's cost beside bare git can be read step by step.

import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { WRITE_STEP_CHANNEL, type WriteStep } from "../src/box/write-steps.ts";
import { quantile } from "./stats.ts";

/** The spans of one write, named by what runs in them. */
export const SPANS = [
  ["lock+read+plan", "start", "before-write"],
  ["journal+writes+fsync", "before-write", "before-commit"],
  ["commit lock+git add", "before-commit", "in-commit"],
  ["git commit", "in-commit", "after-commit"],
  ["ledger record", "after-commit", "after-record"],
  ["journal drop+unlock+after", "after-record", "end"],
] as const;

export type Spans = Record<(typeof SPANS)[number][0], number>;

/** Runs `fn` (one box write) and times the spans between the steps it announced. */
export async function timedSteps(fn: () => Promise<unknown>): Promise<Spans> {
  const at: Record<string, number> = {};
  const onStep = (message: unknown) => {
    const { point } = message as WriteStep;
    at[point] ??= performance.now();
  };
  subscribe(WRITE_STEP_CHANNEL, onStep);
  try {
    at.start = performance.now();
    await fn();
    at.end = performance.now();
  } finally {
    unsubscribe(WRITE_STEP_CHANNEL, onStep);
  }
  const spans = {} as Spans;
  for (const [name, from, to] of SPANS) spans[name] = (at[to] ?? Number.NaN) - (at[from] ?? 0);
  return spans;
}

/** One line per span: the median over the runs, and its share of the median total. */
export function spanLines(label: string, runs: Spans[]): string[] {
  const total = quantile(
    runs.map((r) => Object.values(r).reduce((a, b) => a + b, 0)),
    0.5,
  );
  return [
    `  ${label}: median ${total.toFixed(1)} ms`,
    ...SPANS.map(([name]) => {
      const median = quantile(
        runs.map((r) => r[name]),
        0.5,
      );
      return `    ${name.padEnd(28)} ${median.toFixed(1).padStart(7)} ms ${((median / total) * 100).toFixed(0).padStart(3)}%`;
    }),
  ];
}
