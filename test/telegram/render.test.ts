// How a question is drawn in Telegram: every card text escaped, every limit kept, and every
// presentation on one phone screen, as rendered and as the Bot API emulator receives it.

import { describe, expect, it } from "vitest";
import { answerLayout } from "../../bridges/telegram/keyboard.ts";
import {
  MAX_BUTTON_CHARS,
  MAX_CALLBACK_DATA_BYTES,
  MAX_MESSAGE_CHARS,
} from "../../bridges/telegram/limits.ts";
import {
  closedHtml,
  expiredHtml,
  MEMO_CHARS,
  memoWithin,
  presentationHtml,
} from "../../bridges/telegram/render.ts";
import type { Question } from "../../src/card/question.ts";
import { loadQuestion } from "../../src/questions/store.ts";
import { newToken } from "../../src/slot/presentation/tokens.ts";
import { selectCard, T0, textCard } from "../support/box.ts";
import { buttonData, openHarness, presentQuestion, useEmulator } from "../support/telegram.ts";

const emulator = useEmulator();

function card(overrides: Record<string, unknown> = {}): Question {
  return { status: "pending", "asked-at": T0, ...selectCard(overrides) } as Question;
}

function options(count: number, label: (i: number) => string) {
  return Array.from({ length: count }, (_, i) => ({ id: `o${i}`, label: label(i) }));
}

describe("escaping", () => {
  it("escapes <, & and quotes in the prompt, memo, labels spelled out and learning", () => {
    const html = presentationHtml({
      card: card({
        prompt: 'Move <script>alert("x")</script> & co?',
        memo: "Tom & Jerry <b>bold</b>",
        input: {
          type: "select",
          options: [
            // Long enough that their buttons cannot show them: the text spells them out.
            { id: "a", label: 'A "quoted" <label> that is too long for a button' },
            { id: "b", label: "B & C, and a label that is too long for a button" },
          ],
        },
        learning: { sink: "guide", proposal: 'Use <i> & "\'" wisely' },
      }),
      behind: 0,
    });
    expect(html).toContain("Move &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co?");
    expect(html).toContain("Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt;");
    expect(html).toContain("A &quot;quoted&quot; &lt;label&gt;");
    expect(html).toContain("B &amp; C");
    expect(html).toContain("Use &lt;i&gt; &amp; &quot;'&quot; wisely");
    expect(html).not.toContain("<script>");
    expect(html).not.toMatch(/<(?!\/?(b|i|a)\b)[^>]*>/);
  });

  it("escapes the closed message's prompt and outcome", () => {
    const html = closedHtml("a < b & c", { kind: "answered", text: 'answered via web: "<x>"' });
    expect(html).toContain("a &lt; b &amp; c");
    expect(html).toContain("&quot;&lt;x&gt;&quot;");
  });
});

describe("the expiry notice", () => {
  it("names each question by its id when there is no web link, for qbridge link ID", () => {
    const one = expiredHtml([{ id: "q-<7>", prompt: "Keep the old invoices?", link: undefined }]);
    expect(one).toContain("• Keep the old invoices? (<code>q-&lt;7&gt;</code>)");
    expect(one).toContain("qbridge link q-&lt;7&gt; on the box's machine");
    const linked = expiredHtml([
      { id: "q-1", prompt: "A?", link: "https://q.example.org/q/q-1?s=x" },
      { id: "q-2", prompt: "B?", link: "https://q.example.org/q/q-2?s=y" },
    ]);
    expect(linked).toContain('• <a href="https://q.example.org/q/q-1?s=x">A?</a>');
    expect(linked).not.toContain("<code>");
  });
});

describe("limits", () => {
  it("the largest card a schema allows still fits in 4,096 characters with every option lettered", () => {
    const html = presentationHtml({
      card: card({
        prompt: "<".repeat(2_000),
        memo: "&".repeat(20_000),
        input: { type: "select", options: options(20, (i) => `${i}${'"'.repeat(499)}`) },
        learning: { sink: "guide", proposal: "x".repeat(5_000) },
        "while-waiting": "w".repeat(5_000),
      }),
      behind: 999,
    });
    expect(html.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    for (const letter of "abcdefghijklmnopqrst") expect(html).toContain(`<b>${letter})</b>`);
  });

  it("callback data is a random token far under 64 bytes and at least 64 bits", () => {
    const tokens = Array.from({ length: 200 }, () => newToken());
    for (const token of tokens) {
      expect(Buffer.byteLength(token, "utf8")).toBeLessThanOrEqual(MAX_CALLBACK_DATA_BYTES);
      expect(Buffer.from(token, "base64url").length * 8).toBeGreaterThanOrEqual(64);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it("a long label is shortened on its button and shown whole in the text", () => {
    const label = `Keep it in the archive of ${"very ".repeat(20)}old receipts`;
    const c = card({
      input: {
        type: "select",
        options: [
          { id: "a", label },
          { id: "b", label: "B" },
        ],
      },
    });
    const layout = answerLayout(c, undefined);
    const markup = layout.build(layout.specs.map(() => newToken()));
    const first = markup.inline_keyboard[0]?.[0];
    expect(first?.text.length).toBeLessThanOrEqual(MAX_BUTTON_CHARS);
    expect(first?.text.endsWith("…")).toBe(true);
    expect(first?.text.startsWith("a) Keep it in the archive")).toBe(true);
    expect(presentationHtml({ card: c, behind: 0 })).toContain(label);
  });

  it("20 short options render as lettered buttons two to a row, then Park, Later, Dismiss and the web link in one row", () => {
    const c = card({ input: { type: "select", options: options(20, (i) => `Option ${i + 1}`) } });
    const layout = answerLayout(c, "https://q.example.org/q/x?s=1");
    const rows = layout.build(layout.specs.map(() => newToken())).inline_keyboard;
    expect(rows).toHaveLength(11);
    expect(rows[9]?.map((b) => b.text)).toEqual(["s) Option 19", "t) Option 20"]);
    expect(rows[10]?.map((b) => b.text)).toEqual([
      "🅿️ Park",
      "⏰ Later",
      "🚫 Dismiss",
      "🌐 Web page",
    ]);
    expect(rows[10]?.[3]).toEqual({ text: "🌐 Web page", url: "https://q.example.org/q/x?s=1" });
  });
});

// What a phone shows of a message: its text without tags and entities, wrapped at words. The
// model of a 390x844 screen: about 40 characters to a line of 22 px, 48 px to a row of buttons,
// and 669 px between Telegram's header and its input bar (844 less 175 of chrome).
function visible(html: string): string {
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

function wrappedLines(text: string, width = 40): number {
  return text.split("\n").reduce((total, line) => {
    let lines = 1;
    let used = 0;
    for (const word of line.split(" ")) {
      const length = Array.from(word).length;
      if (used > 0 && used + 1 + length > width) {
        lines++;
        used = length;
      } else used += (used > 0 ? 1 : 0) + length;
    }
    return total + lines;
  }, 0);
}

const LONG_MEMO =
  "A photo of a receipt from the pharmacy arrived at intake this morning, and no rule in the finance guide says where medical receipts belong. Last year they went to taxes because they were deductible, but the new insurance plan reimburses most of them directly, so they might belong with insurance now. The household folder also has a few from 2025 that were filed by hand. If the receipt stays in intake too long it will be swept into the archive with the rest of the unsorted mail. Whatever you choose becomes the rule for every medical receipt that arrives after this one, at home or at work.";

const SEVEN_OPTIONS = {
  type: "select",
  options: [
    { id: "finance", label: "Finance" },
    { id: "taxes", label: "Taxes" },
    { id: "insurance", label: "Insurance" },
    { id: "household", label: "Household" },
    { id: "health", label: "Health" },
    { id: "intake", label: "Keep them in intake for now" },
    { id: "_other", label: "Somewhere else" },
  ],
};

describe("one phone screen", () => {
  const link = "https://q.example.org/q/x?s=1";
  const long = card({
    prompt: "Where should medical receipts go from now on?",
    memo: LONG_MEMO,
    input: SEVEN_OPTIONS,
    learning: { sink: "guide", proposal: "Medical receipts belong in the chosen folder." },
    recommended: "insurance",
    "while-waiting": "The receipt stays in intake.",
  });

  it("7 options and a 580-character memo fit a 390x844 screen: memo cut at a sentence, options only on their buttons", () => {
    expect(LONG_MEMO.length).toBeGreaterThanOrEqual(580);
    const html = presentationHtml({ card: long, behind: 3, link });
    const text = visible(html);
    const layout = answerLayout(long, link);
    const rows = layout.build(layout.specs.map(() => newToken())).inline_keyboard;

    expect(text.length).toBeLessThanOrEqual(560);
    expect(rows).toHaveLength(5);
    expect(wrappedLines(text) * 22 + rows.length * 48).toBeLessThanOrEqual(669);
    // Cut after the sentence that ends nearest 300 characters, and the rest is a tap away.
    expect(text).toContain("so they might belong with insurance now. More on the 🌐 web page.");
    expect(text).not.toContain("The household folder");
    expect(rows.at(-1)?.at(-1)).toEqual({ text: "🌐 Web page", url: link });
    // The options are on the buttons, with their letters, and not listed again in the text.
    expect(text).not.toMatch(/^[a-g]\) /m);
    expect(rows.slice(0, 4).map((row) => row.map((b) => b.text))).toEqual([
      ["a) Finance", "b) Taxes"],
      ["⭐ c) Insurance", "d) Household"],
      ["e) Health", "g) Somewhere else"],
      ["f) Keep them in intake for now"],
    ]);
  });

  it("a memo that fits is shown whole, with no pointer to the web", () => {
    const html = presentationHtml({ card: card({ memo: "Short and clear." }), behind: 0, link });
    expect(html).toContain("Short and clear.");
    expect(html).not.toContain("More on the");
  });

  it("a memo with no sentence end near the cut is cut at a word, with an ellipsis", () => {
    const { text, cut } = memoWithin(`${"word ".repeat(100)}end`, MEMO_CHARS);
    expect(cut).toBe(true);
    expect(text.endsWith("word…")).toBe(true);
    expect(text.length).toBeLessThanOrEqual(MEMO_CHARS + 1);
  });

  it("a memo cut inside a character of two UTF-16 units (an emoji) keeps it whole: half of one is not UTF-8", () => {
    // No space and no sentence end: the cut falls at a fixed length, here inside an emoji.
    for (const memo of [`a${"😀".repeat(400)}`, `${"😀".repeat(400)}`]) {
      const { text, cut } = memoWithin(memo, MEMO_CHARS);
      expect(cut).toBe(true);
      expect(text).not.toMatch(/\p{Cs}/u);
      const html = presentationHtml({ card: card({ memo }), behind: 0, link });
      expect(html).not.toMatch(/\p{Cs}/u);
    }
  });

  it("a text question gets Park, Later, Dismiss and the web link, and says to reply", () => {
    const c = card({ prompt: "What is the name?", input: { type: "text" } });
    const layout = answerLayout(c, link);
    expect(layout.specs.map((spec) => spec.action)).toEqual(["park", "later", "dismiss"]);
    const rows = layout.build(layout.specs.map(() => newToken())).inline_keyboard;
    expect(rows.map((row) => row.map((b) => b.text))).toEqual([
      ["🅿️ Park", "⏰ Later", "🚫 Dismiss", "🌐 Web page"],
    ]);
    expect(presentationHtml({ card: c, behind: 0, link })).toContain(
      "Reply with your answer in your own words.",
    );
  });
});

describe("one phone screen, as sent to Telegram", () => {
  it("the long question reaches the chat in one message of at most 560 visible characters and 5 rows of buttons", async () => {
    const h = await openHarness(emulator(), { link: true });
    await h.ask(textCard({ priority: "low" }));
    const { message } = await presentQuestion(h, {
      ...selectCard(),
      prompt: "Where should medical receipts go from now on?",
      memo: LONG_MEMO,
      input: SEVEN_OPTIONS,
      recommended: "insurance",
    });
    const call = h.sent("sendMessage").at(-1);
    const markup = call?.payload.reply_markup as { inline_keyboard: unknown[][] } | undefined;
    const rows = markup?.inline_keyboard;
    expect(h.sent("sendMessage")).toHaveLength(1);
    expect(visible(message.text).length).toBeLessThanOrEqual(560);
    expect(rows).toHaveLength(5);
    expect(message.text).toContain("1 more waiting after this one.");
  });

  it("a text question is parked and dismissed with its own buttons", async () => {
    const h = await openHarness(emulator());
    const { id, message } = await presentQuestion(h, textCard());
    await h.owner.tap(buttonData(message, "🅿️ Park"), message.messageId);
    await h.pump();
    expect(h.slot.current()).toBeUndefined();
    expect(loadQuestion(h, id).card.status).toBe("pending");

    await h.slot.next();
    const again = await h.lastMessage();
    await h.owner.tap(buttonData(again, "🚫 Dismiss"), again.messageId);
    await h.pump();
    expect(loadQuestion(h, id).card.status).toBe("dismissed");
  });
});
