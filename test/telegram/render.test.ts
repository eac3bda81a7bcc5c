// How a question is drawn in Telegram: every card text escaped, every limit kept.

import { describe, expect, it } from "vitest";
import { answerLayout } from "../../bridges/telegram/keyboard.ts";
import {
  MAX_BUTTON_CHARS,
  MAX_CALLBACK_DATA_BYTES,
  MAX_MESSAGE_CHARS,
} from "../../bridges/telegram/limits.ts";
import { closedHtml, presentationHtml } from "../../bridges/telegram/render.ts";
import type { Question } from "../../src/card/question.ts";
import { newToken } from "../../src/slot/tokens.ts";
import { selectCard, T0 } from "../support/box.ts";

function card(overrides: Record<string, unknown> = {}): Question {
  return { status: "pending", "asked-at": T0, ...selectCard(overrides) } as Question;
}

function options(count: number, label: (i: number) => string) {
  return Array.from({ length: count }, (_, i) => ({ id: `o${i}`, label: label(i) }));
}

describe("escaping", () => {
  it("escapes <, & and quotes in the prompt, memo, labels and learning", () => {
    const html = presentationHtml({
      card: card({
        prompt: 'Move <script>alert("x")</script> & co?',
        memo: "Tom & Jerry <b>bold</b>",
        input: {
          type: "select",
          options: [
            { id: "a", label: 'A "quoted" <label>' },
            { id: "b", label: "B & C" },
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

  it("20 options render as 20 lettered buttons, then Park and Dismiss, then the web link", () => {
    const c = card({ input: { type: "select", options: options(20, (i) => `Option ${i + 1}`) } });
    const layout = answerLayout(c, "https://q.example.org/q/x?s=1");
    const rows = layout.build(layout.specs.map(() => newToken())).inline_keyboard;
    expect(rows).toHaveLength(22);
    expect(rows[19]?.[0]?.text).toBe("t) Option 20");
    expect(rows[20]?.map((b) => b.text)).toEqual(["🅿️ Park", "🚫 Dismiss"]);
    expect(rows[21]?.[0]).toEqual({
      text: "🌐 Open on the web",
      url: "https://q.example.org/q/x?s=1",
    });
  });
});
