// The whole request of a coding agent's permission question, on its page, when the prompt
// holds only its head and tail (or, for an MCP tool, only a sentence): unfolded, since the page
// is where such a request is allowed. A command is shown as it runs; a tool's input (the
// card's `request` holds it as JSON) as its arguments, one per line, each value whole and in a
// line of its own, so a value's own line breaks never pass for another argument. Escaped like
// every card text; hidden characters were spelled out when it was filed, and those the JSON
// held escaped are spelled out here.

import { requestBeyondPrompt } from "../card/agent-request.ts";
import { visibleLine, visibleLines } from "../card/agent-text.ts";
import type { Question } from "../card/question.ts";
import { html, type Markup } from "./html.ts";

/** Deeper than this, a value is shown as the text it was sent as. */
const NESTED_LEVELS = 4;

/** The tool's arguments the request is the JSON of, or undefined when it is a command. */
function toolArguments(request: string): Record<string, unknown> | undefined {
  if (!request.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(request);
    const plain = value !== null && typeof value === "object" && !Array.isArray(value);
    // Only the input's own JSON, as the card was filed with it: never a command that parses.
    return plain && JSON.stringify(value) === request
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function valueMarkup(value: unknown, level: number): Markup {
  if (typeof value === "string") {
    return value === ""
      ? html`<span class="meta">(empty text)</span>`
      : html`<span class="text">${visibleLines(value)}</span>`;
  }
  if (value === null) return html`<span class="meta">(none)</span>`;
  if (typeof value !== "object") return html`<span class="text">${String(value)}</span>`;
  if (level >= NESTED_LEVELS)
    return html`<code class="text">${visibleLines(JSON.stringify(value))}</code>`;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [`${i + 1}.`, item])
    : Object.entries(value).map(([key, item]) => [`${visibleLine(key)}:`, item]);
  if (entries.length === 0) return html`<span class="meta">(none)</span>`;
  return html`<ul class="args">${entries.map(([key, item]) => html`<li><span class="arg-name">${key}</span> ${valueMarkup(item, level + 1)}</li>`)}</ul>`;
}

export function requestBlock(card: Question): Markup {
  if (!requestBeyondPrompt(card)) return html``;
  const request = card.request ?? "";
  const args = toolArguments(request);
  if (args) {
    const count = Object.keys(args).length;
    const which =
      count === 0 ? "no arguments" : count === 1 ? "its one argument" : `all ${count} arguments`;
    return html`<div class="card warn" id="request"><p class="meta">What it runs with: ${which}, whole; read them before you allow it</p>${valueMarkup(args, 0)}</div>`;
  }
  return html`<div class="card warn" id="request"><p class="meta">The whole request (${request.length.toLocaleString("en-US")} characters): read it all before you allow it</p><pre class="text">${request}</pre></div>`;
}
