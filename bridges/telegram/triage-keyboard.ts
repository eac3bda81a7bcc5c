// The buttons of triage: one per digest line (showing that question now), [✅ Accept N
// recommendations] when the digest offers any, and the confirming [✅ Record these N] of the
// list that follows. Each callback button carries only a minted token.

import type { InlineKeyboardButton } from "grammy/types";
import type { Digest } from "../../src/slot/port.ts";
import type { Layout } from "./keyboard.ts";
import { acceptButtonText, lineButtonText, recordButtonText } from "./triage-render.ts";

export function digestLayout(digest: Digest, allQuestions: string | undefined): Layout {
  const specs: Layout["specs"] = digest.lines.map((line) => ({
    action: "show",
    questionId: line.id,
  }));
  if (digest.offer.length) specs.push({ action: "triage" });
  return {
    specs,
    build(tokens) {
      const rows: InlineKeyboardButton[][] = digest.lines.map((line, i) => [
        { text: lineButtonText(i, line), callback_data: tokens[i] as string },
      ]);
      if (digest.offer.length) {
        rows.push([
          {
            text: acceptButtonText(digest.offer.length),
            callback_data: tokens[digest.lines.length] as string,
          },
        ]);
      }
      if (allQuestions) rows.push([{ text: "🌐 All questions", url: allQuestions }]);
      return { inline_keyboard: rows };
    },
  };
}

/** The one button that records the listed offer. */
export function offerLayout(offerId: string, count: number): Layout {
  return {
    specs: [{ action: "accept", optionId: offerId }],
    build: (tokens) => ({
      inline_keyboard: [[{ text: recordButtonText(count), callback_data: tokens[0] as string }]],
    }),
  };
}
