// The buttons of a presentation: one per option (lettered; short ones two to a row), then Park,
// Later, Dismiss and a URL button to the web page in one row. Text questions get that last row too.
// Each callback button carries only a minted token; what it means stays in the ledger.

import type { InlineKeyboardButton, InlineKeyboardMarkup } from "grammy/types";
import {
  type ButtonSpec,
  type LaterOption,
  optionsOf,
  PROMPT_SHOWN_CHARS,
  type Question,
  unseenAllow,
} from "../../src/slot/port.ts";
import { flat, shorten } from "./html.ts";
import { MAX_BUTTON_CHARS } from "./limits.ts";
import { buttonText } from "./render.ts";

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

export function answerLayout(
  card: Question,
  link: string | undefined,
  offers: Offers = {},
): Layout {
  // An agent's request longer than the message shows offers no allow here (only on the page).
  const all = optionsOf(card);
  const options = all.filter((o) => !unseenAllow(card, o.id, PROMPT_SHOWN_CHARS));
  const letter = (o: (typeof all)[number]) => all.indexOf(o);
  const specs: ButtonSpec[] = options.map((o) => ({
    action: "answer",
    optionId: o.id,
    label: o.label,
  }));
  const extra = offerSpecs(offers);
  specs.push(...extra.specs, { action: "park" }, { action: "later" }, { action: "dismiss" });
  return {
    specs,
    build(tokens) {
      const button = (i: number, text: string): InlineKeyboardButton => ({
        text,
        callback_data: tokens[i] as string,
      });
      const rows: InlineKeyboardButton[][] =
        card.input.type === "confirm"
          ? [
              options.map((o, i) =>
                button(i, card.recommended === o.id ? `⭐ ${o.label}` : o.label),
              ),
            ]
          : pairShort(
              options.map((o, i) =>
                button(i, buttonText(letter(o), o.label, card.recommended === o.id)),
              ),
            );
      if (extra.texts.length > 0) {
        rows.push(extra.texts.map((text, i) => button(options.length + i, text)));
      }
      const at = options.length + extra.texts.length;
      const last = [button(at, "🅿️ Park"), button(at + 1, "⏰ Later"), button(at + 2, "🚫 Dismiss")];
      if (link) last.push({ text: "🌐 Web page", url: link });
      rows.push(last);
      return { inline_keyboard: rows };
    },
  };
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
