// The whole request of a coding agent's permission question, on its page, when the prompt
// holds only its head and tail (or, for an MCP tool, only a sentence): unfolded, since the page
// is where such a request is allowed. A command is shown as it runs; a tool's input (the
// card's `request` holds it as JSON) as its arguments, one per line, each value whole and in a
// line of its own, so a value's own line breaks never pass for another argument. A prompt that
// ends with a tool's whole input ("Run deploy-tools' deploy on staging: {...}?") is headed by
// its words alone, the input shown as those lines below it. Escaped like every card text;
// hidden characters were spelled out when it was filed, and those the JSON held escaped are
// spelled out here.
// A plan (kind: plan) is shown whole always, rendered as Markdown in which nothing runs or
// loads (markdown-html.ts).

import { requestBeyondPrompt, requestInOneLine } from "../card/agent-request.ts";
import { visibleLine, visibleLines } from "../card/agent-text.ts";
import type { Question } from "../card/question.ts";
import { html, type Markup, raw } from "./html.ts";
import { markdownHtml } from "./markdown-html.ts";

function planBlock(plan: string): Markup {
  const lines = plan === "" ? 0 : plan.split("\n").length;
  return html`<div class="card warn" id="request"><p class="meta">The whole plan (${lines.toLocaleString("en-US")} lines): read it all before you approve it</p><div class="text plan">${raw(markdownHtml(plan))}</div></div>`;
}

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

/** A tool's arguments, whole, with what they are for a person who allows them. */
function argumentsBlock(args: Record<string, unknown>): Markup {
  const count = Object.keys(args).length;
  const which =
    count === 0 ? "no arguments" : count === 1 ? "its one argument" : `all ${count} arguments`;
  return html`<div class="card warn" id="request"><p class="meta">What it runs with: ${which}, whole; read them before you allow it</p>${valueMarkup(args, 0)}</div>`;
}

/** The prompt's words when it ends with the tool's whole input as JSON, else undefined. */
function wordsBeforeInput(card: Question, request: string): string | undefined {
  const tail = `: ${requestInOneLine(request)}?`;
  if (!card.prompt.endsWith(tail) || card.prompt.length === tail.length) return undefined;
  return `${card.prompt.slice(0, -tail.length)}?`;
}

/** The page's heading for the question, and the request to show under it (or nothing). */
export function requestOnPage(card: Question): { heading: string; block: Markup } {
  if (card.kind === "plan") return { heading: card.prompt, block: planBlock(card.request ?? "") };
  const request = card.request ?? "";
  const args = card.request === undefined ? undefined : toolArguments(request);
  const words = args ? wordsBeforeInput(card, request) : undefined;
  if (args && words) return { heading: words, block: argumentsBlock(args) };
  if (!requestBeyondPrompt(card)) return { heading: card.prompt, block: html`` };
  if (args) return { heading: card.prompt, block: argumentsBlock(args) };
  return {
    heading: card.prompt,
    block: html`<div class="card warn" id="request"><p class="meta">The whole request (${request.length.toLocaleString("en-US")} characters): read it all before you allow it</p><pre class="text">${request}</pre></div>`,
  };
}
