// The pages a person sees when a link or a form cannot be honoured: what went wrong and what
// to do next, in a sentence each. Nothing about the question leaks into them.

import { html, type Markup } from "./html.ts";
import { page } from "./layout.ts";
import type { LinkScope } from "./links.ts";
import { localTime } from "./when.ts";

const FRESH_LINK = html`<p>Get a fresh link: send <code>/waiting</code> to the bot in your chat, or run <code>qbridge link ID</code> (or <code>qbridge link --questions</code>) on the box's machine.</p>`;

/** The way to a fresh link for exactly what the refused link was meant to open. */
function freshLinkFor(scope: LinkScope): Markup {
  const command =
    "question" in scope ? `qbridge link ${scope.question}` : `qbridge link --${scope.page}`;
  return html`<p>Get a fresh link: send <code>/waiting</code> to the bot in your chat, or run <code>${command}</code> on the box's machine.</p>`;
}

/** Why a link was refused: cut short, changed, expired, or made for another page. */
export type LinkProblem = "malformed" | "tampered" | "expired" | "elsewhere";

const HEADINGS: Record<LinkProblem, string> = {
  malformed: "This link is incomplete",
  tampered: "This link was changed",
  expired: "This link has expired",
  elsewhere: "This link is for another question",
};

export function deniedLinkPage(
  reason: LinkProblem,
  scope: LinkScope,
  expiredAt?: Date,
  timeZone?: string,
  typed: readonly string[] = [],
): string {
  const what =
    reason === "expired"
      ? html`<p>It expired${expiredAt ? html` on ${localTime(expiredAt, timeZone)}` : ""}. Links last a week, so an old message cannot answer for you.</p>`
      : reason === "malformed"
        ? html`<p>Its signature is missing or cut short. Links are only valid exactly as they were sent: copy the whole link again.</p>`
        : reason === "elsewhere"
          ? html`<p>Its signature is intact, but it was made for another question or page of this box than the one in the address. A link opens only what it was made for.</p>`
          : html`<p>Its signature does not match what the box signed: some of the link was changed after it was sent.</p>`;
  return page(
    "Link not valid",
    html`<h1>${HEADINGS[reason]}</h1><div class="card problem">${what}${freshLinkFor(scope)}</div>${keptWords(typed)}`,
  );
}

/** What a form sent through a link that expired meanwhile: shown back, so it can be copied. */
function keptWords(typed: readonly string[]): Markup {
  if (typed.length === 0) return html``;
  return html`<div class="card warn" id="typed"><p>What you wrote was not recorded; copy it into the page of a fresh link:</p>${typed.map((text) => html`<p class="text">${text}</p>`)}</div>`;
}

/** `GET /`: what this server is and how a person gets in. */
export function homePage(): string {
  return page(
    "question-bridge",
    html`<h1>question-bridge</h1><div class="card"><p>This server shows the questions your agents asked you, each through its own signed link. Nothing is shown without one.</p>${FRESH_LINK}</div>`,
  );
}

/** Every page of a read-only box that was never served: there is no key to check a link with. */
export function noLinkKeyPage(): string {
  return page(
    "Pages off",
    html`<h1>This box has no link key yet</h1><div class="card problem"><p>The box this server reads is read-only and has never been served, so it has no key to check links with (<code>.qbridge/secret</code>), and no link can open a page.</p><p>On the box's machine, make the box writable (or run <code>qbridge link --questions</code> once where it is writable), then start <code>qbridge web</code> again.</p></div>`,
  );
}

/** A post through a link handed to an asker: such a link shows the question and answers nothing. */
export const SHOW_ONLY_SENTENCE =
  "This link shows the question only and answers nothing: nothing was changed.";

export function showOnlyPage(): string {
  return page(
    "Shows only",
    html`<h1>This link answers nothing</h1><div class="card problem"><p>${SHOW_ONLY_SENTENCE}</p></div>`,
  );
}

export function staleFormPage(): string {
  return page(
    "Form out of date",
    html`<h1>This form cannot be sent</h1><div class="card problem"><p>The form did not come from this link's page (its form token is missing or wrong), so nothing was changed. Open the link again and answer from the page it shows.</p></div>`,
  );
}

export function notFoundPage(message: string): string {
  return page(
    "Not found",
    html`<h1>Nothing here</h1><div class="card problem"><p class="text">${message}</p></div>`,
  );
}

export function badRequestPage(message: string): string {
  return page(
    "Not a question",
    html`<h1>This address names no question</h1><div class="card problem"><p class="text">${message}</p></div>`,
  );
}

export function tooLargePage(limitBytes: number): string {
  return page(
    "Too long",
    html`<h1>That was too long to send</h1><div class="card problem"><p>Forms take at most ${Math.floor(limitBytes / 1024)} KiB. Shorten the answer and send it again.</p></div>`,
  );
}

export function failurePage(): string {
  return page(
    "Something failed",
    html`<h1>Something failed on the box</h1><div class="card problem"><p>Nothing was recorded. Try again in a moment; if it keeps failing, run <code>qbridge doctor</code> on the box's machine.</p></div>`,
  );
}

export function unreadablePage(message: string): string {
  return page(
    "Card unreadable",
    html`<h1>This question's card cannot be read</h1><div class="card problem"><p class="text">${message}</p><p>Run <code>qbridge doctor</code> on the box's machine.</p></div>`,
  );
}
