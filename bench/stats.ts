// Medians, percentiles and the printed line of a figure beside its floor, or beside its floor
// and its budget.

export function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export async function timeIt(fn: () => unknown | Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function sample(
  runs: number,
  fn: (i: number) => unknown | Promise<unknown>,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) out.push(await timeIt(() => fn(i)));
  return out;
}

const ms = (n: number) => `${n.toFixed(1).padStart(7)} ms`;

/** One row: the figure's median and p95 beside the floor's, and the ratio of medians. */
export function row(label: string, figure: number[], floorLabel: string, floor: number[]): string {
  const ratio = quantile(figure, 0.5) / quantile(floor, 0.5);
  return `${label.padEnd(34)} median ${ms(quantile(figure, 0.5))} p95 ${ms(quantile(figure, 0.95))} | ${floorLabel.padEnd(26)} median ${ms(quantile(floor, 0.5))} p95 ${ms(quantile(floor, 0.95))} | ratio ${ratio.toFixed(2)}x`;
}

/** One budget line: the figure's median beside its floor's, the ratio, the budget, the verdict. */
export function budgetRow(
  label: string,
  figure: number[],
  floorLabel: string,
  floor: number[],
  budget: number,
): string {
  const ratio = quantile(figure, 0.5) / quantile(floor, 0.5);
  const verdict =
    ratio <= budget ? "within" : `OVER by ${(((ratio - budget) / budget) * 100).toFixed(0)}%`;
  return `${label.padEnd(30)} median ${ms(quantile(figure, 0.5))} | ${floorLabel.padEnd(27)} median ${ms(quantile(floor, 0.5))} | ${ratio.toFixed(2)}x, budget ${budget.toFixed(1)}x: ${verdict}`;
}
