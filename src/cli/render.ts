// How questions look in a terminal: plain text, one question at a time, letters for options.

import { requestBeyondPrompt } from "../card/agent-request.ts";
import { inputTypeOf, priorityOf, type Question } from "../card/question.ts";
import type { QuestionView } from "../questions/state.ts";

function oneLine(text: string, max = 72): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function listLine(view: QuestionView): string {
  const { card } = view;
  const status = card.status === "pending" ? priorityOf(card) : card.status;
  const answer =
    card.status === "answered" && card.answer ? `  → ${oneLine(card.answer.text, 40)}` : "";
  return `${view.id}  [${status}]  ${oneLine(card.prompt)}${answer}`;
}

export function describeAnswer(card: Question): string {
  if (card.status === "answered" && card.answer) {
    const by = card["answered-by"] ? ` by ${card["answered-by"]}` : "";
    const note = card.answer.note ? ` (note: ${card.answer.note})` : "";
    return `answered "${card.answer.text}"${note} via ${card["answered-via"]}${by} at ${card["answered-at"]}`;
  }
  if (card.status === "dismissed") return `dismissed at ${card["dismissed-at"]} (still answerable)`;
  if (card.status === "expired") return `expired at ${card["expired-at"]} (still answerable)`;
  if (card.status === "withdrawn") {
    const reason = card["withdrawn-reason"] ? `: ${card["withdrawn-reason"]}` : "";
    return `withdrawn by the asker at ${card["withdrawn-at"]}${reason} (no longer answerable)`;
  }
  return "pending";
}

/**
 * How the question is answered: its lettered options listed (the recommended one marked), or
 * what to type, in the words of its input type.
 */
function howToAnswer(card: Question): string[] {
  const type = inputTypeOf(card.input);
  const listed = type.choices(card).filter((choice) => choice.letter !== undefined);
  if (listed.length > 0) {
    const many = type.buttons(card, []).buttons.some((b) => b.action === "send");
    return [
      many ? `Options (pick one or more: ${type.hint.what}):` : "Options:",
      ...listed.map((c) => `  ${c.letter}) ${c.label}${c.recommended ? "  (recommended)" : ""}`),
    ];
  }
  const rec = card.recommended ? ` (recommended: ${card.recommended})` : "";
  return [`Type ${type.hint.what}${rec}.`];
}

export function showText(view: QuestionView): string {
  const { card } = view;
  const lines = [`${card.prompt}`, "", `id:       ${view.id}`, `status:   ${describeAnswer(card)}`];
  lines.push(
    `priority: ${priorityOf(card)}`,
    `asked:    ${card["asked-at"]}${card["asked-by"] ? ` by ${card["asked-by"]}` : ""}`,
  );
  lines.push("", `Why: ${card.memo.trim()}`);
  if (requestBeyondPrompt(card)) lines.push("", "The whole request:", card.request ?? "");
  lines.push("", ...howToAnswer(card));
  if (card.learning)
    lines.push("", `The box will learn: ${card.learning.proposal.trim()} (${card.learning.sink})`);
  if (card["while-waiting"]) lines.push(`While waiting: ${card["while-waiting"]}`);
  if (card.irreversible) lines.push("Irreversible: the directive cannot be undone.");
  lines.push(`Directive: ${card.directive.trim()}`);
  for (const ref of card.context ?? [])
    lines.push(`Context: ${ref.ref}${ref.text ? ` — ${oneLine(ref.text, 100)}` : ""}`);
  return `${lines.join("\n")}\n`;
}
