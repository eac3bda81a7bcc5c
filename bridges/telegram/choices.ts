// How the buttons a question's input type offers read on Telegram: each choice's button text
// (letter, ⭐ for the recommendation, ☑/☐ on a toggle, Send with its count), the labels its
// buttons cannot show whole, and what the message says where the buttons do not (a reply
// answers; taps pick, then Send). Pure: the offer is the input type's, never asked by its name.

import { type ChoiceButton, inputTypeOf, type Question } from "../../src/slot/port.ts";
import { escapeWithin, flat, shorten } from "./html.ts";
import { MAX_BUTTON_CHARS } from "./limits.ts";

/**
 * A choice's button text: its letter and label shortened ("⭐ a) Finance"), a yes/no as it is
 * ("⭐ Yes"), a toggle with its mark ("☑ b) Lint"), Send with how many are picked.
 */
export function choiceText(button: ChoiceButton, picked = 0): string {
  if (button.action === "send") return picked > 0 ? `📨 Send (${picked} picked)` : "📨 Send";
  const star = button.recommended ? "⭐ " : "";
  if (button.letter === undefined) return `${star}${button.label}`;
  const mark = button.action === "toggle" ? (button.picked ? "☑ " : "☐ ") : "";
  return shorten(`${mark}${star}${button.letter}) ${flat(button.label)}`, MAX_BUTTON_CHARS);
}

/** Lettered options whose button cannot show the whole label, spelled out in the text. */
export function cutLabelLines(card: Question, max: number): string[] {
  return inputTypeOf(card.input)
    .buttons(card, [])
    .buttons.flatMap((button) =>
      button.action !== "send" && button.letter !== undefined && choiceText(button).endsWith("…")
        ? [`<b>${button.letter})</b> ${escapeWithin(flat(button.label), max)}`]
        : [],
    );
}

/**
 * What to do, where the buttons do not say it: with no buttons (a text question) a reply
 * answers; with buttons that toggle, taps pick and Send records, or a reply names the picks.
 */
export function howToAnswer(card: Question): string | undefined {
  const type = inputTypeOf(card.input);
  const { buttons } = type.buttons(card, []);
  if (buttons.length === 0) return `Reply with ${type.hint.what}.`;
  if (buttons.some((b) => b.action === "send")) {
    return `Tap the options you pick, then 📨 Send; or reply with ${type.hint.what}.`;
  }
  return undefined;
}

/** True when a button shows the recommendation (⭐), so the text need not say it. */
export function recommendedOnButton(card: Question): boolean {
  return inputTypeOf(card.input)
    .buttons(card, [])
    .buttons.some((b) => b.action !== "send" && b.recommended);
}
