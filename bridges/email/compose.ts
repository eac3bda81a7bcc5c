// How a question looks as an e-mail: the prompt as the subject; the memo, the options with their
// letters, what the box will learn, the recommendation, the safe action while waiting and the
// deadline; an HTML part with one button per option and a plain-text part that says to reply
// with a letter. Pure: a question in, a letter out. Every card text is escaped by hono/html.
//
// A button is a signed link to the question's web page with its option chosen there, where one
// more tap records it: opening a link never answers, so a mail scanner that follows every link
// records nothing.

import { html as honoHtml, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import {
  type Choice,
  deadlineOf,
  expiryWords,
  inputTypeOf,
  optionsOf,
  type Question,
} from "../../src/slot/port.ts";

/** hono/html's template, escaping every value; none of ours is a promise, so it is markup at once. */
function html(strings: TemplateStringsArray, ...values: unknown[]): HtmlEscapedString {
  return honoHtml(strings, ...values) as HtmlEscapedString;
}

/** One e-mail's content, before it is addressed. */
export interface Letter {
  subject: string;
  text: string;
  html: string;
}

export interface QuestionMail {
  card: Question;
  /** Questions waiting behind this one. */
  behind: number;
  now: Date;
  /** The signed link to the question's page, with an option chosen there when one is given. */
  link: (optionId?: string) => string | undefined;
  /** Set when e-mail carries the question beside the surface it is shown on first. */
  alsoOn?: string | undefined;
  lastTime?: { day: string; answer: string } | undefined;
}

/** One line: runs of white space become one space. */
export function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** A subject line: one line, at most `max` characters. */
export function subjectOf(text: string, max = 150): string {
  const line = flat(text);
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/** "Telegram" for "telegram": a surface's name in a sentence. */
function surfaceName(surface: string): string {
  return surface.charAt(0).toUpperCase() + surface.slice(1);
}

/** The sentence that says how to answer by replying, as the question's input type says it. */
export function howToReply(card: Question): string {
  const { hint } = inputTypeOf(card.input);
  const note = hint.note ? ` (${hint.note})` : "";
  return `Reply with ${hint.what}${note}. Only the first line of your reply is read.`;
}

/** The choices a reply may name, as the input type offers them (lettered, or yes and no). */
function choicesOf(card: Question): Choice[] {
  return inputTypeOf(card.input).choices(card);
}

/** A choice as a line or a button reads it: "a) Finance", "Yes", with the recommendation. */
function choiceLabel(choice: Choice, star: string): string {
  const letter = choice.letter === undefined ? "" : `${choice.letter}) `;
  return `${letter}${flat(choice.label)}${choice.recommended ? star : ""}`;
}

/** The lines after the memo: options, what is learned, recommendation, waiting, deadline. */
function detailLines(mail: QuestionMail): string[] {
  const { card } = mail;
  const lines: string[] = [];
  const recommendedLabel = optionsOf(card).find((o) => o.id === card.recommended)?.label;
  if (card.learning) lines.push(`The box will learn: ${flat(card.learning.proposal)}`);
  const recommended = recommendedLabel ?? card.recommended;
  if (recommended !== undefined) lines.push(`Recommended: ${flat(recommended)}`);
  if (mail.lastTime) lines.push(`Last time (${mail.lastTime.day}): ${flat(mail.lastTime.answer)}`);
  if (card["while-waiting"]) lines.push(`While waiting: ${flat(card["while-waiting"])}`);
  if (card.irreversible)
    lines.push("Irreversible: your answer is confirmed before it is recorded.");
  const deadline = expiryWords(deadlineOf(card), mail.now);
  lines.push(`This question ${deadline}.`);
  if (mail.behind > 0) lines.push(`${mail.behind} more waiting after this one.`);
  return lines;
}

/** The lettered choices, one a line (yes and no need no list: the reply says them). */
function optionLines(card: Question): string[] {
  return choicesOf(card)
    .filter((c) => c.letter !== undefined)
    .map((c) => choiceLabel(c, "  (recommended)"));
}

function alsoLine(mail: QuestionMail): string | undefined {
  return mail.alsoOn
    ? `This question is waiting for you on ${surfaceName(mail.alsoOn)}; answer here or there, the first answer counts.`
    : undefined;
}

function questionText(mail: QuestionMail): string {
  const { card } = mail;
  const also = alsoLine(mail);
  const page = mail.link();
  const options = optionLines(card);
  return [
    ...(also ? [also, ""] : []),
    flat(card.prompt),
    "",
    card.memo.trim(),
    ...(options.length ? ["", ...options] : []),
    "",
    ...detailLines(mail),
    "",
    howToReply(card),
    ...(page ? [`Or answer on the web page: ${page}`] : []),
  ].join("\n");
}

const BUTTON =
  "display:inline-block;margin:4px 6px 4px 0;padding:10px 14px;border-radius:6px;background:#1a5fb4;color:#ffffff;text-decoration:none;font-weight:bold";
const BOX = "font-family:sans-serif;max-width:600px;line-height:1.4";

function buttons(mail: QuestionMail): HtmlEscapedString | string {
  const choices = choicesOf(mail.card);
  const links = choices.map((choice) => ({ choice, href: mail.link(choice.id) }));
  if (choices.length === 0 || links.some((l) => l.href === undefined)) {
    const page = mail.link();
    return page ? html`<p><a style="${BUTTON}" href="${page}">Answer on the web page</a></p>` : "";
  }
  return html`<p>${links.map(({ choice, href }) => html`<a style="${BUTTON}" href="${href}">${choiceLabel(choice, " ★")}</a>`)}</p>
<p style="color:#555;font-size:90%">A button opens the question's page with that answer chosen; one more tap there records it.</p>`;
}

function questionHtml(mail: QuestionMail): string {
  const { card } = mail;
  const also = alsoLine(mail);
  const options = optionLines(card);
  const memo = card.memo
    .trim()
    .split(/\n{2,}/)
    .map((p) => html`<p>${p}</p>`);
  return String(html`<div style="${BOX}">
${also ? html`<p style="color:#555"><em>${also}</em></p>` : ""}
<h2 style="font-size:120%">${flat(card.prompt)}</h2>
${memo}
${options.length ? html`<p>${options.map((line, i) => html`${i ? raw("<br>") : ""}${line}`)}</p>` : ""}
${buttons(mail)}
<p>${detailLines(mail).map((line, i) => html`${i ? raw("<br>") : ""}${line}`)}</p>
<p style="color:#555">${howToReply(card)}</p>
</div>`);
}

/** The e-mail that presents a question. */
export function questionLetter(mail: QuestionMail): Letter {
  const prefix = mail.alsoOn ? `[waiting on ${surfaceName(mail.alsoOn)}] ` : "";
  return {
    subject: subjectOf(`${prefix}${mail.card.prompt}`),
    text: questionText(mail),
    html: questionHtml(mail),
  };
}
