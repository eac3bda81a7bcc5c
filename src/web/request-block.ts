// The whole request of a coding agent's permission question, on its page, when the prompt
// holds only its head and tail: unfolded, since the page is where such a request is allowed.
// Escaped like every card text; hidden characters were spelled out when it was filed. A plan
// (kind: plan) is shown whole always, rendered as Markdown in which nothing runs or loads
// (markdown-html.ts).

import { requestBeyondPrompt } from "../card/agent-request.ts";
import type { Question } from "../card/question.ts";
import { html, type Markup, raw } from "./html.ts";
import { markdownHtml } from "./markdown-html.ts";

function planBlock(plan: string): Markup {
  const lines = plan === "" ? 0 : plan.split("\n").length;
  return html`<div class="card warn" id="request"><p class="meta">The whole plan (${lines.toLocaleString("en-US")} lines): read it all before you approve it</p><div class="text plan">${raw(markdownHtml(plan))}</div></div>`;
}

export function requestBlock(card: Question): Markup {
  if (card.kind === "plan") return planBlock(card.request ?? "");
  if (!requestBeyondPrompt(card)) return html``;
  const request = card.request ?? "";
  return html`<div class="card warn" id="request"><p class="meta">The whole request (${request.length.toLocaleString("en-US")} characters): read it all before you allow it</p><pre class="text">${request}</pre></div>`;
}
