// The questions page: pending questions first in slot order, then the archive with what was
// recorded for each (an MCP form's answer in words), one page of it at a time (most recently
// closed first) with links to the newer and older pages. Each entry links to its question
// through a freshly signed link. With a backlog, the triage digest (triage-page.ts) comes first.

import { formAnswerLine } from "../card/form-words.ts";
import { priorityOf, type Question } from "../card/question.ts";
import type { ArchivePage, QuestionView } from "../questions/state.ts";
import { html, type Markup } from "./html.ts";
import { type PageLinks, page } from "./layout.ts";
import { timeMarkup } from "./when.ts";

function outcome(card: Question, now: Date, timeZone?: string): Markup {
  const at = (iso: string | undefined) => timeMarkup(iso, now, timeZone);
  switch (card.status) {
    case "answered": {
      const note = card.answer?.note ? ` (note: ${card.answer.note})` : "";
      const text = card.answer ? (formAnswerLine(card, card.answer) ?? card.answer.text) : "";
      return html`answered “${text}”${note} via ${card["answered-via"]} ${at(card["answered-at"])}`;
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

/** What one page of the questions page shows. */
export interface QuestionsListing {
  pending: QuestionView[];
  /** This page's part of the archive, and how many closed questions there are in all. */
  archive: ArchivePage;
  unreadable: number;
  /** This page (from 1) and how many pages the archive takes. */
  page: number;
  pages: number;
  /** The link to another page of this page. */
  pageHref(page: number): string;
}

/** Newer and older pages of the archive, when it takes more than one. */
function pageNav(listing: QuestionsListing): Markup | string {
  const { page, pages, pageHref } = listing;
  if (pages <= 1) return "";
  const newer = page > 1 ? html`<a rel="prev" href="${pageHref(page - 1)}">← Newer</a> ` : "";
  const older = page < pages ? html` <a rel="next" href="${pageHref(page + 1)}">Older →</a>` : "";
  return html`<p class="meta" id="archive-pages">${newer}Page ${page} of ${pages}${older}</p>`;
}

export function questionsPage(
  listing: QuestionsListing,
  hrefOf: (id: string) => string,
  now: Date,
  timeZone?: string,
  links?: PageLinks,
  digest?: Markup,
): string {
  const { pending: waiting, archive: closed } = listing;
  const pending =
    listing.page > 1 && waiting.length
      ? html`<p id="pending-first"><a href="${listing.pageHref(1)}">On the first page</a></p>`
      : waiting.length
        ? html`<ul class="list" id="pending">${waiting.map((v) => entry(v, hrefOf(v.id), now, timeZone))}</ul>`
        : html`<p id="pending">Nothing is waiting on you.</p>`;
  const archive = closed.views.length
    ? html`<ul class="list" id="archive">${closed.views.map((v) => entry(v, hrefOf(v.id), now, timeZone))}</ul>`
    : html`<p id="archive">No answered, dismissed or expired questions yet.</p>`;
  const unreadable = listing.unreadable
    ? html`<div class="card problem"><p>${listing.unreadable} card(s) cannot be read and are not listed: run <code>qbridge doctor</code> on the box's machine.</p></div>`
    : "";
  return page(
    "Questions",
    html`<h1>Questions</h1>${unreadable}${digest ?? ""}<h2>Waiting on you (${waiting.length})</h2>${pending}<h2>Archive (${closed.total})</h2>${archive}${pageNav(listing)}`,
    links,
  );
}
