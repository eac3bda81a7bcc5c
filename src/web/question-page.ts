// The page of one question, opened through its signed link: what is asked and why, what the
// box will learn (before the choice, as every chat shows it), then the form its input type
// offers, so a phone's first screen has the choice and Send; the rarer actions (dismiss, more
// days, later) and the longer context come after. Once answered, the recorded answer instead.
// Every card text goes through `html`, so nothing an agent wrote becomes markup.

import { cutAtSentence } from "../card/excerpt.ts";
import { questionFingerprint } from "../card/fingerprint.ts";
import { inputTypeOf, mayWait, optionsOf, priorityOf, type Question } from "../card/question.ts";
import { deadlineOf, expiryWords } from "../questions/deadline.ts";
import type { QuestionView } from "../questions/state.ts";
import { answerFieldsMarkup, type FormValues } from "./answer-fields.ts";
import { formFieldsMarkup, isMultiFieldForm } from "./form-fields.ts";
import { html, type Markup } from "./html.ts";
import { type PageLinks, page } from "./layout.ts";
import { requestBlock } from "./request-block.ts";
import { localTime, timeMarkup } from "./when.ts";

export interface QuestionPageInput {
  view: QuestionView;
  /** The form's action: the signed link this page was opened with. */
  action: string;
  formToken: string;
  /** A line above the question: a refused answer, or a submission that changed nothing. */
  notice?: { tone: "problem" | "notice"; text: string } | undefined;
  values?: FormValues | undefined;
  /** The box's clock and time zone: times read "3 days ago (10 Jul 2026, 11:00)". */
  now: Date;
  timeZone?: string | undefined;
  /** Next question and all questions, freshly signed. */
  links?: PageLinks | undefined;
  /** The Later buttons, for a pending question (later-form.ts). */
  later?: Markup | undefined;
  /** When a put-off question comes back (later-form.ts), shown under the status line. */
  laterBack?: Markup | undefined;
  /** The answered question most like this one (src/slot/last-time.ts). */
  lastTime?: { day: string; answer: string } | undefined;
  /** Opened through a link handed to an asker: the question only, no form and no action. */
  showOnly?: boolean | undefined;
}

/** Said where the form would be, on a page opened through a link handed to an asker. */
export const SHOW_ONLY_LINE =
  "This link shows this question only: it answers nothing. The boxholder answers it from their own chat or link.";

/** Memos longer than this are cut at a sentence, the rest folded. */
const MEMO_HEAD_CHARS = 160;

export type { FormValues } from "./answer-fields.ts";

export function recordedAnswer(card: Question, now: Date, timeZone?: string): Markup {
  const when = (iso: string | undefined) => timeMarkup(iso, now, timeZone);
  if (card.status === "answered" && card.answer) {
    const { answer } = card;
    return html`<div class="card notice" id="recorded">
<p class="meta">Recorded answer</p>
<p class="text"><strong>${answer.text}</strong></p>
${answer.note ? html`<p class="text">Note: ${answer.note}</p>` : ""}
<p class="meta">Answered via ${card["answered-via"]}${card["answered-by"] ? ` by ${card["answered-by"]}` : ""} ${when(card["answered-at"])}</p>
</div>`;
  }
  if (card.status === "dismissed") {
    return html`<div class="card warn" id="recorded"><p>Dismissed ${when(card["dismissed-at"])}. You can still answer it below.</p></div>`;
  }
  if (card.status === "expired") {
    return html`<div class="card warn" id="recorded"><p>Expired ${when(card["expired-at"])} without an answer. You can still answer it below.</p></div>`;
  }
  if (card.status === "withdrawn") {
    return html`<div class="card warn" id="recorded"><p>Withdrawn by the asker${card["withdrawn-reason"] ? html`: <span class="text">${card["withdrawn-reason"]}</span>` : ""} (${when(card["withdrawn-at"])}). It can no longer be answered.</p></div>`;
  }
  return html``;
}

function memo(card: Question): Markup {
  const { head, rest } = cutAtSentence(card.memo, MEMO_HEAD_CHARS);
  return html`<div class="card" id="memo"><p class="meta">Why this is asked</p><p class="text">${head}</p>${rest ? html`<details><summary>Read the rest</summary><p class="text">${rest}</p></details>` : ""}</div>`;
}

function learning(card: Question): Markup {
  if (!card.learning) return html``;
  const answered = card.status === "answered";
  return html`<div class="card learn"><p class="meta">${answered ? "What the box learns from your answer" : "What the box will learn from your answer"} (${card.learning.sink}${card.learning.ref ? `, ${card.learning.ref}` : ""})</p><p class="text">${card.learning.proposal}</p></div>`;
}

function guidance(card: Question): Markup {
  const recommended = card.recommended
    ? (optionsOf(card).find((o) => o.id === card.recommended)?.label ?? card.recommended)
    : undefined;
  const lines = [
    recommended ? html`<span class="rec">Recommended:</span> ${recommended}` : "",
    card["while-waiting"] ? html`<strong>While waiting:</strong> ${card["while-waiting"]}` : "",
  ].filter((line) => line !== "");
  return html`${lines.length ? html`<p class="text">${lines.map((line, i) => (i ? html`<br>${line}` : line))}</p>` : ""}
${card.irreversible ? html`<div class="card warn"><p><strong>Irreversible:</strong> what follows your answer cannot be undone.</p></div>` : ""}`;
}

function contextRefs(card: Question): Markup {
  if (!card.context?.length) return html``;
  const items = card.context.map((ref) => {
    const link = /^https?:\/\//i.test(ref.ref)
      ? html`<a href="${ref.ref}" rel="noopener noreferrer" target="_blank">${ref.ref}</a>`
      : html`<code>${ref.ref}</code>`;
    return html`<div class="card"><p>${link}</p>${ref.text ? html`<p class="text">${ref.text}</p>` : ""}</div>`;
  });
  return html`<details class="card" id="context"><summary>Context (${card.context.length})</summary>${items}</details>`;
}

function answerForm(input: QuestionPageInput): Markup {
  const { card } = input.view;
  const values = input.values ?? {};
  // An elicitation of several fields has a form of its own; any other question, its type's.
  const fields = isMultiFieldForm(card)
    ? formFieldsMarkup(card, values.text)
    : answerFieldsMarkup(inputTypeOf(card.input).form(card), values);
  const dismiss =
    card.status === "pending"
      ? html`<form method="post" action="${input.action}"><input type="hidden" name="form" value="${input.formToken}"><input type="hidden" name="action" value="dismiss"><button type="submit" class="quiet">Dismiss for now</button></form>`
      : "";
  return html`<h2 class="answer">Your answer</h2>
<form method="post" action="${input.action}" id="answer">
<input type="hidden" name="form" value="${input.formToken}">
<input type="hidden" name="action" value="answer">
<input type="hidden" name="shown" value="${questionFingerprint(card)}">
${fields}
</form>
${lastTimeLine(input.lastTime)}
${dismiss}
${card.status === "pending" && mayWait(card) ? extendForm(input) : ""}
${card.status === "pending" && mayWait(card) ? (input.later ?? "") : ""}`;
}

/** Under the form, so the choices and Send stay on a phone's first screen. */
function lastTimeLine(lastTime: QuestionPageInput["lastTime"]): Markup {
  if (!lastTime) return html``;
  return html`<p class="text" id="last-time"><strong>Last time (${lastTime.day}):</strong> ${lastTime.answer}</p>`;
}

/** More time before it expires: one Extend step (src/questions/deadline.ts). */
function extendForm(input: QuestionPageInput): Markup {
  return html`<form method="post" action="${input.action}" id="extend"><input type="hidden" name="form" value="${input.formToken}"><input type="hidden" name="action" value="extend"><button type="submit" class="quiet">⏳ Give it 7 more days</button></form>`;
}

/** When a pending question expires, in words and as a date in the box's zone. */
function deadline(card: Question, now: Date, timeZone?: string): Markup {
  if (card.status !== "pending") return html``;
  const at = deadlineOf(card);
  return html` · <span id="deadline">${expiryWords(at, now)} (<time datetime="${at.toISOString()}">${localTime(at, timeZone)}</time>)</span>`;
}

export function questionPage(input: QuestionPageInput): string {
  const { view, notice, now, timeZone } = input;
  const { card } = view;
  const priority = priorityOf(card);
  // Answered and withdrawn questions take no more answers: no form.
  const final = card.status === "answered" || card.status === "withdrawn";
  const body = html`<p class="meta"><span class="tag ${priority}">${priority}</span> ${card.status} · asked ${timeMarkup(card["asked-at"], now, timeZone)}${card["asked-by"] ? ` by ${card["asked-by"]}` : ""}${deadline(card, now, timeZone)}</p>
${card.status === "pending" ? (input.laterBack ?? "") : ""}
${notice ? html`<div class="card ${notice.tone}" role="status"><p class="text">${notice.text}</p></div>` : ""}
<h1 class="text">${card.prompt}</h1>
${requestBlock(card)}
${recordedAnswer(card, now, timeZone)}
${memo(card)}
${learning(card)}
${final ? "" : guidance(card)}
${final ? "" : input.showOnly ? html`<p class="meta" id="show-only">${SHOW_ONLY_LINE}</p>` : answerForm(input)}
${contextRefs(card)}
<details class="card" id="directive"><summary>What happens with the answer</summary><p class="text">${card.directive}</p></details>
<p class="meta">Question <code>${view.id}</code></p>`;
  return page(card.prompt.slice(0, 80), body, input.links);
}
