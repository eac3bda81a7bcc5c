// The stats page's charts as server-rendered SVG: no script, drawn in `currentColor` so they
// follow the page's light or dark colours. Each chart carries a <title> and an aria-label; the
// page puts a table with the same numbers beside it.

import type { Stats } from "../questions/stats/stats.ts";
import { spoken } from "../questions/stats/stats-clock.ts";
import { html, type Markup } from "./html.ts";

/** Outcome shades: one colour (the text's), told apart by opacity and named in the legend. */
export const SHADES = { answered: 1, dismissed: 0.5, expired: 0.2 } as const;

function frame(id: string, label: string, height: number, body: Markup | Markup[]): Markup {
  return html`<svg id="${id}" class="chart" role="img" aria-label="${label}" viewBox="0 0 300 ${height}" width="100%" preserveAspectRatio="xMidYMid meet"><title>${label}</title>${body}</svg>`;
}

export function daysChart(days: Stats["days"]): Markup {
  const max = Math.max(1, ...days.map((d) => d.answered + d.dismissed + d.expired));
  const step = 300 / days.length;
  const bars = days.map((d, i) => {
    let y = 110;
    return (["answered", "dismissed", "expired"] as const).map((k) => {
      const h = (d[k] / max) * 100;
      y -= h;
      return d[k] > 0
        ? html`<rect x="${(i * step + 1).toFixed(1)}" y="${y.toFixed(1)}" width="${(step - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="currentColor" fill-opacity="${SHADES[k]}"/>`
        : html``;
    });
  });
  const total = days.reduce((n, d) => n + d.answered + d.dismissed + d.expired, 0);
  const label = `Questions closed per day over the last ${days.length} days, by outcome: ${total} in all, at most ${max} on one day`;
  return frame(
    "chart-days",
    label,
    120,
    html`${bars}<line x1="0" y1="110.5" x2="300" y2="110.5" stroke="currentColor" stroke-opacity=".4"/>`,
  );
}

export function distributionChart(distribution: Stats["distribution"]): Markup {
  const max = Math.max(1, ...distribution.map((b) => b.count));
  const row = 20;
  const bars = distribution.map((b, i) => {
    const w = (b.count / max) * 170;
    return html`<text x="0" y="${i * row + 14}" font-size="11" fill="currentColor">${b.label}</text><rect x="100" y="${i * row + 4}" width="${w.toFixed(1)}" height="12" fill="currentColor"/><text x="${(104 + w).toFixed(1)}" y="${i * row + 14}" font-size="11" fill="currentColor">${b.count}</text>`;
  });
  const total = distribution.reduce((n, b) => n + b.count, 0);
  return frame(
    "chart-distribution",
    `Time to answer of the ${total} answers in the window, counted in ${distribution.length} ranges`,
    distribution.length * row,
    bars,
  );
}

export function hoursChart(byHour: Stats["responsiveness"]["byHour"]): Markup {
  const max = Math.max(1, ...byHour.map((h) => h.p50Seconds ?? 0));
  const step = 300 / 24;
  const bars = byHour.map((h) => {
    const height = ((h.p50Seconds ?? 0) / max) * 100;
    return h.count > 0
      ? html`<rect x="${(h.hour * step + 1).toFixed(1)}" y="${(110 - height).toFixed(1)}" width="${(step - 2).toFixed(1)}" height="${height.toFixed(1)}" fill="currentColor"/>`
      : html``;
  });
  const ticks = [0, 6, 12, 18].map(
    (hour) =>
      html`<text x="${(hour * step + 1).toFixed(1)}" y="124" font-size="10" fill="currentColor">${String(hour).padStart(2, "0")}:00</text>`,
  );
  const answered = byHour.filter((h) => h.count > 0);
  const slowest = answered.length ? Math.max(...answered.map((h) => h.p50Seconds ?? 0)) : null;
  return frame(
    "chart-hours",
    `Median time to answer by the hour the question was asked: ${answered.length} of 24 hours have answers, the slowest median ${spoken(slowest)}`,
    128,
    html`${bars}<line x1="0" y1="110.5" x2="300" y2="110.5" stroke="currentColor" stroke-opacity=".4"/>${ticks}`,
  );
}
