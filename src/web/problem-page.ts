// The pages a person sees when a link or a form cannot be honoured: what went wrong and what
// to do next, in a sentence each. Nothing about the question leaks into them.

import { html } from "./html.ts";
import { page } from "./layout.ts";

const FRESH_LINK = html`<p>Get a fresh link: send <code>/waiting</code> to the bot in your chat, or run <code>qbridge link ID</code> (or <code>qbridge link --questions</code>) on the box's machine.</p>`;

export type LinkProblem = "malformed" | "tampered" | "expired";

export function deniedLinkPage(reason: LinkProblem, expiredAt?: Date): string {
  const what =
    reason === "expired"
      ? html`<p>This link expired${expiredAt ? html` on ${expiredAt.toISOString().slice(0, 16).replace("T", " ")} UTC` : ""}. Links last a week, so an old message cannot answer for you.</p>`
      : reason === "malformed"
        ? html`<p>This link is incomplete: its signature is missing or cut short. Links are only valid exactly as they were sent.</p>`
        : html`<p>This link's signature does not match. It was changed, or it belongs to another question or page; a link opens only the one question it was made for.</p>`;
  return page(
    "Link not valid",
    html`<h1>This link cannot be used</h1><div class="card problem">${what}${FRESH_LINK}</div>`,
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
