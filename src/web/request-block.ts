// The whole request of a coding agent's permission question, on its page, when the prompt
// holds only its head and tail: unfolded, since the page is where such a request is allowed.
// Escaped like every card text; hidden characters were spelled out when it was filed.

import { requestBeyondPrompt } from "../card/agent-request.ts";
import type { Question } from "../card/question.ts";
import { html, type Markup } from "./html.ts";

export function requestBlock(card: Question): Markup {
  if (!requestBeyondPrompt(card)) return html``;
  const request = card.request ?? "";
  return html`<div class="card warn" id="request"><p class="meta">The whole request (${request.length.toLocaleString("en-US")} characters): read it all before you allow it</p><pre class="text">${request}</pre></div>`;
}
