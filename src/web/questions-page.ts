// The questions page: pending questions first in slot order, then the archive with what was
// recorded for each. Each entry links to its question through a freshly signed link. With a
// backlog, the triage digest (triage-page.ts) comes first.

import { priorityOf, type Question } from "../card/question.ts";
import type { BoxState, QuestionView } from "../questions/state.ts";
import { html, type Markup } from "./html.ts";
import { type PageLinks, page } from "./layout.ts";
import { timeMarkup } from "./when.ts";

function outcome(card: Question, now: Date, timeZone?: string): Markup {
  const at = (iso: string | undefined) => timeMarkup(iso, now, timeZone);
  switch (card.status) {
    case "answered": {
      const note = card.answer?.note ? ` (note: ${card.answer.note})` : "";
      return html`answered “${card.answer?.text ?? ""}”${note} via ${card["answered-via"]} ${at(card["answered-at"])}`;
    }
    case "dismissed":
      return html`dismissed ${at(card["dismissed-at"])}, still answerable`;
    case "expired":
      return html`expired ${at(card["expired-at"])} without an answer, still answerable`;
    case "withdrawn":
      return html`withdrawn by the asker ${at(card["withdrawn-at"])}${card["withdrawn-reason"] ? `: ${card["withdrawn-reason"]}` : ""}`;
    case "pending":
      return html`asked ${at(card["asked-at"])}${card["asked-by"] ? ` by ${card["asked-by"]}` : ""}`;
  }
}

function entry(view: QuestionView, href: string, now: Date, timeZone?: string): Markup {
  const { card } = view;
  const tag =
    card.status === "pending"
      ? html`<span class="tag ${priorityOf(card)}">${priorityOf(card)}</span>`
      : html`<span class="tag">${card.status}</span>`;
  return html`<li><a href="${href}"><span class="text"><strong>${card.prompt}</strong></span><br><span class="meta">${tag} <span class="text">${outcome(card, now, timeZone)}</span></span></a></li>`;
}

export function questionsPage(
  state: BoxState,
  hrefOf: (id: string) => string,
  now: Date,
  timeZone?: string,
  links?: PageLinks,
  digest?: Markup,
): string {
  const pending = state.pending.length
    ? html`<ul class="list" id="pending">${state.pending.map((v) => entry(v, hrefOf(v.id), now, timeZone))}</ul>`
    : html`<p id="pending">Nothing is waiting on you.</p>`;
  const archive = state.archive.length
    ? html`<ul class="list" id="archive">${state.archive.map((v) => entry(v, hrefOf(v.id), now, timeZone))}</ul>`
    : html`<p id="archive">No answered, dismissed or expired questions yet.</p>`;
  const unreadable = state.unreadable.length
    ? html`<div class="card problem"><p>${state.unreadable.length} card(s) cannot be read and are not listed: run <code>qbridge doctor</code> on the box's machine.</p></div>`
    : "";
  return page(
    "Questions",
    html`<h1>Questions</h1>${unreadable}${digest ?? ""}<h2>Waiting on you (${state.pending.length})</h2>${pending}<h2>Archive (${state.archive.length})</h2>${archive}`,
    links,
  );
}
