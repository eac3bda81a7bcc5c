// How a question looks in Telegram: the presentation (prompt, memo, options with letters, what
// the box will learn, the recommendation, the safe action while waiting), the closed message
// that replaces it, and the short lines of the bot. Pure: text in, HTML out, within the limits.

import { optionsOf, type Question } from "../../src/card/question.ts";
import { letterOf } from "../../src/card/resolve.ts";
import type { Closure } from "../../src/slot/presenter.ts";
import { escapeHtml, escapeWithin, flat, shorten } from "./html.ts";
import { MAX_BUTTON_CHARS, MAX_MESSAGE_CHARS } from "./limits.ts";

/** How much room each part may take (escaped characters); tried from generous to tight. */
interface Budget {
  prompt: number;
  memo: number;
  label: number;
  learning: number;
  waiting: number;
}

const LADDER: Budget[] = [
  { prompt: 4096, memo: 4096, label: 4096, learning: 4096, waiting: 4096 },
  { prompt: 2000, memo: 1200, label: 500, learning: 600, waiting: 400 },
  { prompt: 1200, memo: 600, label: 200, learning: 300, waiting: 200 },
  { prompt: 800, memo: 300, label: 100, learning: 200, waiting: 120 },
  { prompt: 400, memo: 120, label: 60, learning: 100, waiting: 80 },
  { prompt: 300, memo: 80, label: 24, learning: 80, waiting: 60 },
  { prompt: 200, memo: 60, label: 10, learning: 60, waiting: 40 },
];

export interface PresentationView {
  card: Question;
  /** Questions waiting behind this one. */
  behind: number;
  /** The signed web link, when a public URL is configured. */
  link?: string | undefined;
}

const ICONS: Record<Closure["kind"], string> = {
  answered: "✅",
  dismissed: "🚫",
  expired: "⌛",
  withdrawn: "🔙",
  parked: "🅿️",
  changed: "✏️",
  removed: "🗑",
  "set-aside": "↩️",
};

function optionLines(card: Question, max: number): string[] {
  if (card.input.type !== "select") return [];
  return optionsOf(card).map((option, i) => {
    const mark = card.recommended === option.id ? " ⭐" : "";
    return `<b>${letterOf(i)})</b> ${escapeWithin(flat(option.label), max)}${mark}`;
  });
}

function howToAnswer(card: Question): string {
  switch (card.input.type) {
    case "select":
      return 'Tap a button, or reply with a letter, a label, or "Label - note".';
    case "confirm":
      return 'Tap Yes or No, or reply "yes - your note" / "no - your note".';
    case "text":
      return "Reply to this message with your answer. /park or /dismiss to put it aside.";
  }
}

function renderWith(view: PresentationView, b: Budget): string {
  const { card } = view;
  const lines: string[] = [`❓ <b>${escapeWithin(card.prompt.trim(), b.prompt)}</b>`, ""];
  lines.push(escapeWithin(card.memo.trim(), b.memo));
  const options = optionLines(card, b.label);
  if (options.length) lines.push("", ...options);
  const extra: string[] = [];
  if (card.learning) {
    extra.push(
      `📚 <b>The box will learn:</b> ${escapeWithin(card.learning.proposal.trim(), b.learning)}`,
    );
  }
  if (card.recommended !== undefined) {
    const options = optionsOf(card);
    const index = options.findIndex((o) => o.id === card.recommended);
    const option = options[index];
    const name =
      card.input.type === "select" && option
        ? `${letterOf(index)}) ${escapeWithin(flat(option.label), b.label)}`
        : escapeHtml(option?.label ?? card.recommended);
    extra.push(`👉 <b>Recommended:</b> ${name}`);
  }
  if (card["while-waiting"]) {
    extra.push(`⏳ <b>While waiting:</b> ${escapeWithin(card["while-waiting"].trim(), b.waiting)}`);
  }
  if (card.irreversible) extra.push("⚠️ <b>Irreversible:</b> a tap asks you to confirm first.");
  if (extra.length) lines.push("", ...extra);
  lines.push("", `<i>${escapeHtml(howToAnswer(card))}</i>`);
  if (card.input.type === "text" && view.link) {
    lines.push(`<a href="${escapeHtml(view.link)}">Open it on the web page</a>`);
  }
  if (view.behind > 0) lines.push(`<i>${view.behind} more waiting after this one.</i>`);
  return lines.join("\n");
}

/** The presentation's HTML: whole when it fits, else memo, learning and labels shortened. */
export function presentationHtml(view: PresentationView): string {
  for (const budget of LADDER) {
    const html = renderWith(view, budget);
    if (html.length <= MAX_MESSAGE_CHARS) return html;
  }
  // Only a card with well over a hundred options gets here: the prompt alone, the web has it all.
  return escapeWithin(flat(view.card.prompt), MAX_MESSAGE_CHARS);
}

/** An option's button text: its letter and its label, shortened. */
export function buttonText(index: number, label: string, recommended: boolean): string {
  const text = `${letterOf(index)}) ${flat(label)}`;
  return shorten(recommended ? `⭐ ${text}` : text, MAX_BUTTON_CHARS);
}

/** What replaces a presentation once it is closed: the prompt and what happened, no buttons. */
export function closedHtml(prompt: string, closure: Omit<Closure, "card">): string {
  return `${ICONS[closure.kind]} <b>${escapeWithin(flat(prompt), 600)}</b>\n\n${escapeWithin(
    upperFirst(closure.text),
    2000,
  )}`;
}

export function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "What is waiting on me?": the count and the current or top question alone. */
export function waitingHtml(count: number, top: Question | undefined, presented: boolean): string {
  if (count === 0 || !top) return "Nothing is waiting on you.";
  const which = presented ? "Open now" : "Next";
  return `${count} waiting on you. ${which}: <b>${escapeWithin(flat(top.prompt), 1000)}</b>`;
}

export function nudgeHtml(card: Question, days: number, presented: boolean): string {
  const age = `${days} day${days === 1 ? "" : "s"}`;
  return presented
    ? `⏰ This question has waited ${age} for your answer.`
    : `⏰ A question has waited ${age}: <b>${escapeWithin(flat(card.prompt), 1000)}</b>`;
}

export const HELP_HTML = [
  "<b>question-bridge</b> shows you one question at a time from your agents.",
  "",
  "Tap a button, or reply with a letter (a, b, ...), a label, or <code>Label - note</code>.",
  "Yes/no questions take yes or no, text questions your own words as a reply.",
  "",
  "/waiting – how many questions wait, and the top one",
  "/next – show the next question (parked ones too)",
  "/park – put the open question aside; it stays pending",
  "/dismiss – decline the open question (it stays answerable)",
  "/help – this message",
].join("\n");
