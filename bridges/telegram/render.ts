// How a question looks in Telegram: the presentation (prompt, memo, what the box will learn,
// the recommendation, the safe action while waiting), the closed message that replaces it, and
// the short lines of the bot. Pure: text in, HTML out, within the limits.
//
// A presentation fits one phone screen (390x844) with its buttons: the memo is cut at a sentence
// near MEMO_CHARS (the rest is on the web page), and the options are not listed again in the
// text when their buttons carry them; only a label its button cannot show whole is spelled out.

import {
  type Closure,
  deadlineOf,
  expiryWords,
  type Question,
  requestBeyondPrompt,
} from "../../src/slot/port.ts";
import { cutLabelLines, howToAnswer, recommendedOnButton } from "./choices.ts";
import { cutWithin, escapeHtml, escapeWithin, flat, headOf } from "./html.ts";
import { MAX_MESSAGE_CHARS } from "./limits.ts";

/** About a third of a phone screen of text: the memo is cut at a sentence near here. */
export const MEMO_CHARS = 300;

/** How much room each part may take (escaped characters); tried from generous to tight. */
interface Budget {
  prompt: number;
  memo: number;
  label: number;
  learning: number;
  waiting: number;
}

// The first step is the phone screen; the tighter ones only keep a card with very many long
// labels under Telegram's 4,096 characters.
const LADDER: Budget[] = [
  { prompt: 300, memo: MEMO_CHARS, label: 200, learning: 200, waiting: 160 },
  { prompt: 300, memo: 200, label: 100, learning: 120, waiting: 100 },
  { prompt: 300, memo: 120, label: 60, learning: 100, waiting: 80 },
  { prompt: 300, memo: 80, label: 24, learning: 80, waiting: 60 },
  { prompt: 200, memo: 60, label: 10, learning: 60, waiting: 40 },
];

export interface PresentationView {
  card: Question;
  /** Questions waiting behind this one. */
  behind: number;
  /** The signed web link, when a public URL is configured. */
  link?: string | undefined;
  /** The box's clock: the presentation says when the question expires. */
  now?: Date | undefined;
  /** The answered question most like this one. */
  lastTime?: { day: string; answer: string } | undefined;
}

const ICONS: Record<Closure["kind"], string> = {
  answered: "✅",
  dismissed: "🚫",
  expired: "⌛",
  withdrawn: "🔙",
  parked: "🅿️",
  later: "⏰",
  changed: "✏️",
  removed: "🗑",
  "set-aside": "↩️",
};

/** How far past `near` a sentence may run before the memo is cut at an earlier one or a word. */
const SENTENCE_SLACK = 40;

/**
 * The memo cut at the end of the sentence nearest `near` characters (up to SENTENCE_SLACK past
 * it), or at a word when no sentence ends in the second half; `cut` when anything was left out.
 */
export function memoWithin(memo: string, near: number): { text: string; cut: boolean } {
  const text = memo.trim();
  if (text.length <= near + SENTENCE_SLACK) return { text, cut: false };
  const ends = [...text.slice(0, near + SENTENCE_SLACK).matchAll(/[.!?…]["')\]]?(?=\s)/g)]
    .map((m) => m.index + m[0].length)
    .filter((end) => end >= near / 2)
    .sort((x, y) => Math.abs(x - near) - Math.abs(y - near));
  if (ends[0] !== undefined) return { text: text.slice(0, ends[0]), cut: true };
  const word = headOf(text, near).replace(/\s+\S*$/, "");
  return { text: `${word.length >= near / 2 ? word : headOf(text, near - 1)}…`, cut: true };
}

function renderWith(view: PresentationView, b: Budget): string {
  const { card } = view;
  // The prompt is cut by the characters a person sees, never fewer than PROMPT_SHOWN_CHARS.
  const lines: string[] = [`❓ <b>${escapeHtml(cutWithin(flat(card.prompt), b.prompt))}</b>`, ""];
  const memo = memoWithin(card.memo, b.memo);
  const more = view.link ? " <i>More on the 🌐 web page.</i>" : " <i>(More: qbridge show.)</i>";
  lines.push(`${escapeHtml(memo.text)}${memo.cut ? more : ""}`);
  const labels = cutLabelLines(card, b.label);
  if (labels.length) lines.push("", ...labels);
  const extra: string[] = [];
  if (card.learning) {
    extra.push(
      `📚 <b>The box will learn:</b> ${escapeWithin(flat(card.learning.proposal), b.learning)}`,
    );
  }
  // Where an option's button carries the recommendation, its ⭐ says which one it is.
  if (card.recommended !== undefined && !recommendedOnButton(card)) {
    extra.push(`👉 <b>Recommended:</b> ${escapeWithin(flat(card.recommended), b.label)}`);
  }
  if (view.lastTime) {
    extra.push(
      `↩️ <b>Last time (${escapeHtml(view.lastTime.day)}):</b> ${escapeWithin(flat(view.lastTime.answer), b.label)}`,
    );
  }
  if (card["while-waiting"]) {
    extra.push(`⏳ <b>While waiting:</b> ${escapeWithin(flat(card["while-waiting"]), b.waiting)}`);
  }
  if (requestBeyondPrompt(card)) {
    const where = view.link ? "the 🌐 web page" : "qbridge chat or qbridge show";
    extra.push(`🔎 <b>Shown in part:</b> read it whole on ${where} to allow it; Deny works here.`);
  }
  if (card.irreversible) extra.push("⚠️ <b>Irreversible:</b> a tap asks you to confirm first.");
  if (extra.length) lines.push("", ...extra);
  const footer = [
    view.now ? `${upperFirst(expiryWords(deadlineOf(card), view.now))}.` : undefined,
    howToAnswer(card),
    view.behind > 0 ? `${view.behind} more waiting after this one.` : undefined,
  ]
    .filter((line) => line !== undefined)
    .join(" ");
  if (footer) lines.push("", `<i>${escapeHtml(footer)}</i>`);
  return lines.join("\n");
}

/** The presentation's HTML: the phone-screen cut, or tighter while over Telegram's limit. */
export function presentationHtml(view: PresentationView): string {
  for (const budget of LADDER) {
    const html = renderWith(view, budget);
    if (html.length <= MAX_MESSAGE_CHARS) return html;
  }
  // Only a card with well over a hundred options gets here: the prompt alone, the web has it all.
  return escapeWithin(flat(view.card.prompt), MAX_MESSAGE_CHARS);
}

/** What replaces a presentation once it is closed: the prompt and what happened, no buttons. */
export function closedHtml(prompt: string, closure: Omit<Closure, "card">): string {
  const hint = closure.kind === "parked" ? " (/next brings it back)" : "";
  return `${ICONS[closure.kind]} <b>${escapeWithin(flat(prompt), 600)}</b>\n\n${escapeWithin(
    upperFirst(closure.text) + hint,
    2000,
  )}`;
}

export function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * "What is waiting on me?": the count and the current or top question alone. When none is open,
 * how to see it (/next), or that the ones waiting were put off and come back by themselves.
 */
export function waitingHtml(count: number, top: Question | undefined, presented: boolean): string {
  if (count === 0) return "Nothing is waiting on you.";
  if (!top) return putOffText(count);
  const prompt = `<b>${escapeWithin(flat(top.prompt), 1000)}</b>`;
  if (presented) return `${count} waiting on you. Open now: ${prompt}`;
  return `${count} waiting on you. Next: ${prompt} (/next shows it)`;
}

/** Said when every question waiting was put off with Later. */
export function putOffText(count: number): string {
  return count === 1
    ? "Nothing to answer now: the 1 question waiting was put off with Later and comes back by itself."
    : `Nothing to answer now: the ${count} questions waiting were put off with Later and come back by themselves.`;
}

export function nudgeHtml(card: Question, days: number, presented: boolean): string {
  const age = `${days} day${days === 1 ? "" : "s"}`;
  return presented
    ? `⏰ This question has waited ${age} for your answer.`
    : `⏰ A question has waited ${age}: <b>${escapeWithin(flat(card.prompt), 1000)}</b>`;
}

/**
 * One message for questions that expired unanswered, each linked to its page when possible,
 * else named by its id: the way to a link is `qbridge link ID`, which needs it.
 */
export function expiredHtml(
  questions: readonly { id: string; prompt: string; link: string | undefined }[],
): string {
  const shown = questions.slice(0, 5).map(({ id, prompt, link }) => {
    const text = escapeWithin(flat(prompt), 120);
    return link
      ? `• <a href="${escapeHtml(link)}">${text}</a>`
      : `• ${text} (<code>${escapeHtml(id)}</code>)`;
  });
  const more = questions.length > 5 ? [`… and ${questions.length - 5} more`] : [];
  const count = questions.length;
  const head = `⌛ ${count} question${count === 1 ? "" : "s"} expired unanswered:`;
  const only = questions[0];
  const tail =
    count === 1 && only
      ? `It stays answerable on the web (qbridge link ${escapeHtml(only.id)} on the box's machine).`
      : "They stay answerable on the web (qbridge link ID, or qbridge link --questions, on the box's machine).";
  return [head, ...shown, ...more, tail].join("\n");
}

export const HELP_HTML = [
  "<b>question-bridge</b> shows you one question at a time from your agents.",
  "",
  "Tap a button, or reply with a letter (a, b, ...), a label, or <code>Label - note</code>.",
  "Yes/no questions take yes or no, text questions your own words as a reply.",
  "Multi-select questions: tap the options you pick, then 📨 Send, or reply <code>a, c</code>.",
  "",
  "/waiting – how many questions wait, and the top one",
  "/next – show the next question (parked ones too)",
  "/park – put the open question aside; it stays pending",
  "/later – put it off until this evening, tomorrow morning or next week",
  "/dismiss – decline the open question (it stays answerable)",
  "/help – this message",
].join("\n");

/** The one line before the first question after quiet hours. */
export function overnightText(count: number): string {
  return count === 1
    ? "1 question arrived overnight; here it is"
    : `${count} questions arrived overnight; here is the first`;
}
