// The buttons of a presentation: the ones its input type offers (options lettered, short ones two
// to a row; yes and no in one row; a multi-select's toggles, then Send in a row of its own), then
// Park, Later, Dismiss and a URL button to the web page in one row. Text questions get that last
// row too. A question an agent waits on offers no Park and no Later: it dies in minutes
// (mayWait). Each callback button carries only a minted token; what it means stays in the ledger.

import type { InlineKeyboardButton, InlineKeyboardMarkup } from "grammy/types";
import {
  type ButtonSpec,
  type ChoiceButton,
  inputTypeOf,
  type LaterOption,
  mayWait,
  PROMPT_SHOWN_CHARS,
  type Question,
  unseenAllow,
} from "../../src/slot/port.ts";
import { choiceText } from "./choices.ts";
import { flat, shorten } from "./html.ts";
import { MAX_BUTTON_CHARS } from "./limits.ts";

/** A button text this short fits half a phone's width (390 px) whole. */
const HALF_ROW_CHARS = 18;

export interface Layout {
  /** What each callback button does, in the order of the buttons. */
  specs: ButtonSpec[];
  /** Builds the keyboard once the tokens for `specs` are minted. */
  build(tokens: string[]): InlineKeyboardMarkup;
}

/**
 * Buttons two to a row where both are short, in letter order: a short button waits in its row
 * for the next short one, so a long label between them takes the row below (a b / c d / e g / f).
 */
function pairShort(buttons: InlineKeyboardButton[]): InlineKeyboardButton[][] {
  const rows: InlineKeyboardButton[][] = [];
  let waiting: InlineKeyboardButton[] | undefined;
  for (const button of buttons) {
    if (Array.from(button.text).length > HALF_ROW_CHARS) {
      rows.push([button]);
    } else if (waiting) {
      waiting.push(button);
      waiting = undefined;
    } else {
      waiting = [button];
      rows.push(waiting);
    }
  }
  return rows;
}

/** Buttons the slot offers beside the options: last time's answer again, more time. */
export interface Offers {
  same?: { optionId: string; label: string; from: string } | undefined;
  extendBy?: string | undefined;
}

/** The offers' buttons, in one row under the options: ↩ Same as last time, ⏳ +7 days. */
function offerSpecs(offers: Offers): { specs: ButtonSpec[]; texts: string[] } {
  const specs: ButtonSpec[] = [];
  const texts: string[] = [];
  if (offers.same) {
    specs.push({ action: "same", optionId: offers.same.optionId, label: offers.same.from });
    texts.push(shorten(`↩ Same as last time: ${flat(offers.same.label)}`, MAX_BUTTON_CHARS));
  }
  if (offers.extendBy) {
    const days = /^P(\d+)D$/.exec(offers.extendBy)?.[1];
    specs.push({ action: "extend", label: offers.extendBy });
    texts.push(days ? `⏳ +${days} days` : "⏳ Extend");
  }
  return { specs, texts };
}

/** What a choice's button does, for the judge: its action and the option it names. */
function choiceSpec(button: ChoiceButton): ButtonSpec {
  if (button.action === "send") return { action: "send", label: "Send" };
  return { action: button.action, optionId: button.id, label: button.label };
}

/**
 * The presentation's buttons; `picks`: the options a multi-select shows picked (the judge's,
 * from the ledger), none by default.
 */
export function answerLayout(
  card: Question,
  link: string | undefined,
  offers: Offers = {},
  picks: readonly string[] = [],
): Layout {
  const offered = inputTypeOf(card.input).buttons(card, picks);
  // An agent's request longer than the message shows offers no allow here (only on the page).
  const choices = offered.buttons.filter(
    (b) => b.action === "send" || !unseenAllow(card, b.id, PROMPT_SHOWN_CHARS),
  );
  const specs: ButtonSpec[] = choices.map(choiceSpec);
  const extra = offerSpecs(offers);
  const holds: ButtonSpec[] = mayWait(card) ? [{ action: "park" }, { action: "later" }] : [];
  specs.push(...extra.specs, ...holds, { action: "dismiss" });
  return {
    specs,
    build(tokens) {
      const button = (i: number, text: string): InlineKeyboardButton => ({
        text,
        callback_data: tokens[i] as string,
      });
      const rows = choiceRows(
        choices.map((choice, i) => ({
          choice,
          button: button(i, choiceText(choice, picks.length)),
        })),
        offered.layout,
      );
      if (extra.texts.length > 0) {
        rows.push(extra.texts.map((text, i) => button(choices.length + i, text)));
      }
      const at = choices.length + extra.texts.length;
      const last = holds.length
        ? [button(at, "🅿️ Park"), button(at + 1, "⏰ Later"), button(at + 2, "🚫 Dismiss")]
        : [button(at, "🚫 Dismiss")];
      if (link) last.push({ text: "🌐 Web page", url: link });
      rows.push(last);
      return { inline_keyboard: rows };
    },
  };
}

/** The choices' rows: in one row, or short ones paired; a Send button in a row of its own. */
function choiceRows(
  buttons: { choice: ChoiceButton; button: InlineKeyboardButton }[],
  layout: "row" | "by-width",
): InlineKeyboardButton[][] {
  const picks = buttons.filter((b) => b.choice.action !== "send").map((b) => b.button);
  const sends = buttons.filter((b) => b.choice.action === "send").map((b) => b.button);
  const rows = layout === "row" ? (picks.length > 0 ? [picks] : []) : pairShort(picks);
  if (sends.length > 0) rows.push(sends);
  return rows;
}

/** The confirming step of an irreversible question: Confirm <label>, or Back. */
export function confirmLayout(optionId: string, label: string): Layout {
  return {
    specs: [
      { action: "confirm", optionId, label },
      { action: "back", optionId, label },
    ],
    build(tokens) {
      return {
        inline_keyboard: [
          [
            {
              text: shorten(`⚠️ Confirm ${flat(label)}`, MAX_BUTTON_CHARS),
              callback_data: tokens[0] as string,
            },
            { text: "↩️ Back", callback_data: tokens[1] as string },
          ],
        ],
      };
    },
  };
}

/**
 * The confirming step of a typed answer that is final only once confirmed (a lone character on
 * a text question): Yes records `text`, No records nothing. No option: the words are the answer.
 */
export function wordsLayout(text: string): Layout {
  return {
    specs: [
      { action: "confirm", label: text },
      { action: "back", label: text },
    ],
    build(tokens) {
      return {
        inline_keyboard: [
          [
            { text: "✅ Yes, record it", callback_data: tokens[0] as string },
            { text: "✖️ No", callback_data: tokens[1] as string },
          ],
        ],
      };
    },
  };
}

/** "Later": one button per time the slot offers, then Back to the question's buttons. */
export function laterLayout(options: readonly LaterOption[]): Layout {
  return {
    specs: [
      ...options.map((o) => ({ action: "later" as const, optionId: o.choice, label: o.label })),
      // Back with an option id is "back to the choices" (see the judge's back action).
      { action: "back", optionId: "later" },
    ],
    build(tokens) {
      const rows = options.map((o, i) => [
        { text: `⏰ ${o.label}`, callback_data: tokens[i] as string },
      ]);
      rows.push([{ text: "↩️ Back", callback_data: tokens[options.length] as string }]);
      return { inline_keyboard: rows };
    },
  };
}

export function showLayout(): Layout {
  return {
    specs: [{ action: "show" }],
    build: (tokens) => ({
      inline_keyboard: [[{ text: "👀 Show it", callback_data: tokens[0] as string }]],
    }),
  };
}

export const NO_BUTTONS: InlineKeyboardMarkup = { inline_keyboard: [] };
