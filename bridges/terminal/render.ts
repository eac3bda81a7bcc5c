// How a question looks at a keyboard: plain text, no buttons. The presented question (prompt,
// why, options with letters, what the box will learn, the recommendation, the safe action
// while waiting), the line that replaces it once closed, and the short lines of the chat. Pure.

import {
  type Closure,
  type Digest,
  type DigestLine,
  deadlineOf,
  expiryWords,
  inputTypeOf,
  mayWait,
  type OfferItem,
  type OfferResult,
  type Question,
  recommendationWords,
  requestBeyondPrompt,
  TRIAGE_NOTE,
} from "../../src/slot/port.ts";

const ICONS: Record<Closure["kind"], string> = {
  answered: "✔",
  dismissed: "✖",
  expired: "⌛",
  withdrawn: "↶",
  parked: "P",
  later: "L",
  changed: "✎",
  removed: "-",
  "set-aside": "↩",
};

export function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** How to answer by typing, in the words of the question's input type. */
function howToAnswer(card: Question): string {
  const { hint } = inputTypeOf(card.input);
  return `Type ${hint.what}${hint.note ? `, ${hint.note}` : ""}.`;
}

/** The presented question, as a block of lines. */
export function questionText(
  card: Question,
  behind: number,
  now?: Date,
  lastTime?: { day: string; answer: string },
): string {
  const lines = ["", `? ${flat(card.prompt)}`, "", `  Why: ${card.memo.trim()}`];
  // An agent's request longer than its prompt is printed whole: it is allowed only when seen.
  if (requestBeyondPrompt(card)) lines.push("", "  The whole request:", card.request ?? "");
  // Lettered choices are listed (a letter picks them); yes and no need no list.
  const listed = inputTypeOf(card.input)
    .choices(card)
    .filter((choice) => choice.letter !== undefined);
  if (listed.length > 0) {
    lines.push("");
    for (const choice of listed) {
      const mark = choice.recommended ? "  (recommended)" : "";
      lines.push(`  ${choice.letter}) ${flat(choice.label)}${mark}`);
    }
  }
  const extra: string[] = [];
  if (card.learning) extra.push(`  The box will learn: ${flat(card.learning.proposal)}`);
  if (card.recommended !== undefined && !listed.some((choice) => choice.recommended)) {
    extra.push(`  Recommended: ${card.recommended}`);
  }
  if (lastTime) extra.push(`  Last time (${lastTime.day}): ${flat(lastTime.answer)}`);
  if (card["while-waiting"]) extra.push(`  While waiting: ${flat(card["while-waiting"])}`);
  if (card.irreversible) extra.push("  Irreversible: the directive cannot be undone.");
  if (extra.length) lines.push("", ...extra);
  // A question an agent waits on is neither parked, put off nor extended: it dies in minutes.
  const commands = mayWait(card)
    ? "park, dismiss, later, extend, same, next, waiting, accept, record, help, quit"
    : "dismiss, same, next, waiting, accept, record, help, quit";
  lines.push("", `  ${howToAnswer(card)} (${commands})`);
  if (now) lines.push(`  It ${expiryWords(deadlineOf(card), now)}.`);
  if (behind > 0) lines.push(`  ${behind} more waiting after this one.`);
  return `${lines.join("\n")}\n`;
}

/** What replaces a closed presentation: the prompt and what happened. */
export function closedText(prompt: string, closure: Omit<Closure, "card">): string {
  const hint = closure.kind === "parked" ? " (type next to bring it back)" : "";
  return `${ICONS[closure.kind]} ${flat(prompt)}: ${closure.text}${hint}\n`;
}

/** "What is waiting on me?": the count and the current or top question alone. */
export function waitingText(count: number, top: Question | undefined, presented: boolean): string {
  if (count === 0 || !top) return "Nothing is waiting on you.\n";
  return `${count} waiting on you. ${presented ? "Open now" : "Next"}: ${flat(top.prompt)}\n`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function recommendation(line: DigestLine): string {
  return recommendationWords(line, (choice) => `recommended: ${flat(choice)}`);
}

/** With a backlog, what `waiting` prints: the first questions, each with its recommendation. */
export function digestText(digest: Digest): string {
  const head =
    digest.waiting > digest.lines.length
      ? `${digest.waiting} questions wait on you. The first ${digest.lines.length}:`
      : `${digest.waiting} questions wait on you:`;
  const lines = digest.lines.map(
    (line, i) => `  ${i + 1}. ${flat(line.prompt)}\n     ${recommendation(line)}`,
  );
  const n = digest.offer.length;
  const tail = n
    ? `Type accept to see the ${plural(n, "recommendation")} that can be accepted at once; nothing is recorded yet.`
    : "None can be accepted at once: answer them one at a time.";
  return `${[head, ...lines, tail].join("\n")}\n`;
}

function itemLine(item: OfferItem): string {
  return `  - ${flat(item.prompt)} -> ${flat(item.answer)}`;
}

/** After `accept`: exactly what `record` records. */
export function offerText(items: OfferItem[]): string {
  return `${[
    `Record ${plural(items.length, "answer")}? Each as its own answer, with the note "${TRIAGE_NOTE}":`,
    ...items.map(itemLine),
    "Type record to record these; nothing is recorded until you do.",
  ].join("\n")}\n`;
}

/** After `record`: what was recorded and what was skipped, each named. */
export function offerResultText(result: OfferResult, replayed: boolean): string {
  const lines: string[] = [];
  if (replayed) lines.push("This list was recorded before; nothing more was recorded now.");
  lines.push(
    result.recorded.length
      ? `Recorded ${plural(result.recorded.length, "answer")}:`
      : "Nothing was recorded.",
  );
  lines.push(...result.recorded.map(itemLine));
  if (result.skipped.length) {
    lines.push(`Skipped ${result.skipped.length}:`);
    for (const s of result.skipped) {
      lines.push(`  - "${flat(s.prompt)}" ${flat(s.why)}; nothing was recorded for it.`);
    }
  }
  return `${lines.join("\n")}\n`;
}

export function nudgeText(card: Question, days: number, presented: boolean): string {
  const age = `${days} day${days === 1 ? "" : "s"}`;
  return presented
    ? `⏰ The open question has waited ${age} for your answer.\n`
    : `⏰ A question has waited ${age}: ${flat(card.prompt)}\n`;
}

export const HELP_TEXT = `One question at a time from your agents. Answer the open one by typing:
  a letter (a, b, ...) or a label     select questions; "Label - note" adds a note
  letters or labels: a, c             multi-select questions; "a, c - note" adds a note
  yes / no                            yes/no questions; "no - note" adds a note
  your own words                      text questions ("park" in quotes answers with that word;
                                      a single character asks "Record ... as your answer?" first)
Commands:
  park       put the open question aside; it stays pending, behind the queue
  dismiss    decline the open question (it stays answerable later)
  same       answer as last time, when "Last time" is shown and its answer fits
  extend     give the open question 7 more days before it expires; extend 3d, 12h, 2w: that long
  later      put the open question off until a time: later evening, later morning, later week
             (later alone lists them); it comes back by itself then
  next       show the next question, parked ones too, when none is open
  waiting    how many questions wait, and the open or next one; with 5 or more, the first
             ten with their recommendations
  accept     after waiting: list the recommendations that can be accepted at once (nothing is
             recorded yet)
  record     after accept: record exactly that list, each as its own answer
  help       this text
  quit       leave (Ctrl-D too); nothing open is lost
`;
