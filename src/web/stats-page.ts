// The stats page: how fast answers come and how questions end, as SVG charts each followed by
// a table with the same numbers (the text equivalent), and the stop-asking signals. Every value
// from a card (asker names, prompts) goes through the escaping `html` template.

import type { Stats } from "../questions/stats/stats.ts";
import { spoken } from "../questions/stats/stats-clock.ts";
import { html, type Markup, raw } from "./html.ts";
import { page } from "./layout.ts";
import { daysChart, distributionChart, hoursChart, SHADES } from "./stats-charts.ts";

// Page-local rules only (the shared shell is layout.ts): tables that fit a 390 px phone.
const STYLE = raw(`<style>
.chart{display:block;max-width:100%;height:auto;margin:.5rem 0}
table.nums{width:100%;border-collapse:collapse;font-size:.85rem}
table.nums th,table.nums td{padding:.25rem .3rem;border-bottom:1px solid rgba(127,127,127,.3);text-align:right;overflow-wrap:anywhere}
table.nums th:first-child,table.nums td:first-child{text-align:left}
table.nums th{font-size:.8rem;overflow-wrap:normal;word-break:normal;hyphens:none;padding:.25rem .2rem}
.key{display:inline-block;width:.8rem;height:.8rem;background:currentColor;margin:0 .3rem 0 .6rem;vertical-align:-.05rem}
</style>`);

function table(id: string, caption: string, head: string[], rows: (string | number)[][]): Markup {
  return html`<table class="nums" id="${id}"><caption class="meta">${caption}</caption><thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows.map((r) => html`<tr>${r.map((c) => html`<td>${c}</td>`)}</tr>`)}</tbody></table>`;
}

function legend(): Markup {
  return html`<p class="meta">${(Object.keys(SHADES) as (keyof typeof SHADES)[]).map(
    (k) => html`<span class="key" style="opacity:${SHADES[k]}"></span>${k}`,
  )}</p>`;
}

function responsiveness(stats: Stats): Markup {
  const r = stats.responsiveness;
  // With no answer there is no time to give: the line says so, never "within -".
  const times =
    r.count === 0 || r.p50Seconds === null
      ? html`<p>Over the last ${stats.windowDays} days, no answers yet.</p>`
      : html`<p>Over the last ${stats.windowDays} days, <strong>${r.count}</strong> ${r.count === 1 ? "answer" : "answers"}: half came within <strong>${spoken(r.p50Seconds)}</strong>, nine in ten within <strong>${spoken(r.p90Seconds)}</strong>.</p>`;
  return html`<div class="card" id="summary">${times}<p class="meta">Hours in ${stats.timeZone}.</p></div>
${table(
  "surfaces",
  "Time to answer by surface",
  ["surface", "answers", "p50", "p90"],
  r.bySurface.map((s) => [s.surface, s.count, spoken(s.p50Seconds), spoken(s.p90Seconds)]),
)}`;
}

function signals(stats: Stats): Markup {
  const unanswered = stats.unanswered.length
    ? html`<ul id="unanswered">${stats.unanswered.map(
        (u) =>
          html`<li><span class="text">${u.prompt}</span> <span class="meta">${u.times} times without an answer since ${u.since.slice(0, 10)}</span></li>`,
      )}</ul>`
    : html`<p id="unanswered">No question keeps going unanswered.</p>`;
  return html`<h2>Who asks</h2>${table(
    "askers",
    "Per asker: how their questions ended",
    ["asker", "asked", "answered", "dismissed", "expired", "median"],
    stats.askers.map((a) => [
      a.asker,
      a.asked,
      a.answered,
      a.dismissed,
      a.expired,
      spoken(a.medianAnswerSeconds),
    ]),
  )}<h2>Asked again and again</h2>${unanswered}`;
}

export function statsPage(stats: Stats): string {
  const closed = stats.days.filter((d) => d.answered + d.dismissed + d.expired > 0);
  const hours = stats.responsiveness.byHour.filter((h) => h.count > 0);
  return page(
    "Stats",
    html`${STYLE}<h1>Stats</h1>${responsiveness(stats)}
<h2>Closed per day</h2>${daysChart(stats.days)}${legend()}${table(
      "days",
      "Questions closed per day (days with none left out)",
      ["day", "answered", "dismissed", "expired"],
      closed.map((d) => [d.date.slice(5), d.answered, d.dismissed, d.expired]),
    )}
<h2>Time to answer</h2>${distributionChart(stats.distribution)}${table(
      "distribution",
      "Answers by time to answer",
      ["time to answer", "answers"],
      stats.distribution.map((b) => [b.label, b.count]),
    )}
<h2>By hour asked</h2>${hoursChart(stats.responsiveness.byHour)}${table(
      "hours",
      "Time to answer by the hour the question was asked",
      ["hour", "answers", "p50", "p90"],
      hours.map((h) => [
        `${String(h.hour).padStart(2, "0")}:00`,
        h.count,
        spoken(h.p50Seconds),
        spoken(h.p90Seconds),
      ]),
    )}
${signals(stats)}`,
  );
}
