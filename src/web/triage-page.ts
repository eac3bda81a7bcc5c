// The triage digest on the questions page, and the two pages of accepting recommendations: the
// list of exactly what will be recorded (with the confirming button), then what was recorded
// and what was skipped. Pure rendering: the rule and the recording are src/slot/triage.ts.

import type { OfferDecision } from "../slot/triage/offers.ts";
import {
  type Digest,
  type DigestLine,
  type OfferItem,
  TRIAGE_NOTE,
} from "../slot/triage/triage.ts";
import { html, type Markup } from "./html.ts";
import { type PageLinks, page } from "./layout.ts";

/** Where a triage form posts, and the form token that proves it came from the page. */
export interface TriageForm {
  action: string;
  formToken: string;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function recommendation(line: DigestLine): Markup {
  if (line.recommendation === undefined) return html`no recommendation`;
  const why =
    line.held === "irreversible"
      ? " (irreversible: answer it on its own page)"
      : line.held === "own words"
        ? " (needs your own words)"
        : "";
  return html`recommends <strong>${line.recommendation}</strong>${why}`;
}

/** The digest at the top of the questions page: one line per question, each opening it. */
export function digestSection(
  digest: Digest,
  hrefOf: (id: string) => string,
  form: TriageForm,
): Markup {
  const lines = digest.lines.map(
    (line) =>
      html`<li><a href="${hrefOf(line.id)}"><span class="text"><strong>${line.prompt}</strong></span><br><span class="meta">${recommendation(line)}</span></a></li>`,
  );
  const more =
    digest.waiting > digest.lines.length
      ? html`<p class="meta">The first ${digest.lines.length} of ${digest.waiting}; the rest are listed below.</p>`
      : "";
  const n = digest.offer.length;
  const accept = n
    ? html`<form method="post" action="${form.action}"><input type="hidden" name="form" value="${form.formToken}"><input type="hidden" name="step" value="review"><button type="submit" id="accept">✅ Accept ${plural(n, "recommendation")}</button></form><p class="meta">You see exactly what will be recorded before anything is.</p>`
    : "";
  return html`<section id="triage"><h2>Triage: ${digest.waiting} waiting</h2><ul class="list">${lines}</ul>${more}${accept}</section>`;
}

function itemLine(item: OfferItem): Markup {
  return html`<li><span class="text"><strong>${item.prompt}</strong></span><br><span class="meta">→ ${item.answer}</span></li>`;
}

/** The confirm step: exactly what the second tap records, and the button that does it. */
export function reviewPage(
  items: OfferItem[],
  offerId: string,
  form: TriageForm,
  links: PageLinks,
): string {
  const n = items.length;
  return page(
    "Accept recommendations",
    html`<h1>Record ${plural(n, "answer")}?</h1><div class="card warn"><p>Each is recorded as its own answer, with the note “${TRIAGE_NOTE}”. A question edited or answered elsewhere before you confirm is skipped and named.</p></div><ul class="list" id="review">${items.map(itemLine)}</ul><form method="post" action="${form.action}"><input type="hidden" name="form" value="${form.formToken}"><input type="hidden" name="step" value="confirm"><input type="hidden" name="offer" value="${offerId}"><button type="submit" id="confirm">Record these ${plural(n, "answer")}</button></form><p class="meta">Nothing is recorded until you press it. Go back to keep them all waiting.</p>`,
    links,
  );
}

/** Nothing to accept: the digest is gone or offers nothing now. */
export function nothingToAcceptPage(links: PageLinks): string {
  return page(
    "Nothing to accept",
    html`<h1>Nothing to accept</h1><div class="card"><p>No waiting question has a recommendation to accept right now; nothing was recorded.</p></div>`,
    links,
  );
}

/** After the second tap: what was recorded and what was skipped, each named. */
export function decisionPage(decision: OfferDecision, links: PageLinks): string {
  if (decision.kind === "unknown") {
    return page(
      "Unknown offer",
      html`<h1>Nothing recorded</h1><div class="card problem"><p>This list of recommendations is not known here (the ledger may have been reset). Open all questions and start again.</p></div>`,
      links,
    );
  }
  if (decision.kind === "expired") {
    return page(
      "List too old",
      html`<h1>Nothing recorded</h1><div class="card problem"><p>This list of recommendations is over an hour old, so nothing was recorded. Open all questions and start again.</p></div>`,
      links,
    );
  }
  const result = decision.result;
  if (!result) {
    return page(
      "Already confirmed",
      html`<h1>Already confirmed</h1><div class="card"><p>This list was confirmed before and its recording was cut short; nothing more was recorded now. Open all questions to see what is waiting.</p></div>`,
      links,
    );
  }
  const heading =
    decision.kind === "replayed"
      ? html`<h1>Already recorded</h1><div class="card"><p>This list was confirmed before; nothing more was recorded now.</p></div>`
      : html`<h1>Recorded ${plural(result.recorded.length, "answer")}</h1>`;
  const recorded = result.recorded.length
    ? html`<div class="card notice"><ul class="list" id="recorded">${result.recorded.map(itemLine)}</ul></div>`
    : "";
  const skipped = result.skipped.length
    ? html`<h2>Skipped (${result.skipped.length})</h2><div class="card problem"><ul class="list" id="skipped">${result.skipped.map((s) => html`<li><span class="text">“${s.prompt}” ${s.why}; nothing was recorded for it.</span></li>`)}</ul></div>`
    : "";
  return page("Recommendations accepted", html`${heading}${recorded}${skipped}`, links);
}
